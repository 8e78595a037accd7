/**
 * The class of the host's drawing of the queue in the page's HTML (renderer firstScreen/render.tsx),
 * which queue.css styles until the app replaces it. The page's entry, the app's start and the
 * harness's bridge each look for it: one name for all of them.
 */
export const FIRST_SCREEN_CLASS = 'first-screen';

/** The drawing, as a CSS selector. */
export const FIRST_SCREEN = `.${FIRST_SCREEN_CLASS}`;
