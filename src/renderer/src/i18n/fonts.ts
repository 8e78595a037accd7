/**
 * The fonts shipped with the app for scripts the counter PC may not have (styles/fonts.css declares
 * their faces, so Vite bundles the files). A language's font is loaded before its words are shown,
 * so they appear at once in their own script: a packer must never see boxes.
 */
import { within } from '../within';

/** Font family per language whose script system fonts may lack; Latin languages need none. */
const SCRIPT_FONT: Readonly<Record<string, string>> = {
  hi: 'Noto Sans Devanagari',
};

/**
 * Characters of the scripts those fonts carry: Devanagari's, with the signs it shares with other
 * Indic scripts (the shipped files' own unicode-range also has signs every Latin font here has,
 * such as ₹).
 */
const SCRIPT_FONT_TEXT = /\p{Script_Extensions=Devanagari}/u;

/** Whether `text` has a character only a shipped script font draws (a counter PC may have none). */
export function needsScriptFonts(text: string): boolean {
  return SCRIPT_FONT_TEXT.test(text);
}

/** A sample of the script, so the browser knows which faces to fetch. */
const SAMPLE: Readonly<Record<string, string>> = {
  'Noto Sans Devanagari': 'कखग',
};

/**
 * Loads the regular and bold faces of every shipped script font; resolves (never rejects) when
 * done. All of them, not just the language shown: the top bar names each language in its own
 * script ("हिन्दी" on an English screen).
 */
export function loadScriptFonts(): Promise<void> {
  // One load for the page: boot starts it early, and each start of the words awaits the same one.
  loading ??= loadAll();
  return loading;
}

let loading: Promise<void> | undefined;

async function loadAll(): Promise<void> {
  if (typeof document === 'undefined' || !('fonts' in document)) return;
  const loads = [...new Set(Object.values(SCRIPT_FONT))].flatMap((family) =>
    ['400', '700'].map((weight) => document.fonts.load(`${weight} 20px "${family}"`, SAMPLE[family] ?? '').catch(() => [])),
  );
  // The files are local, so this takes milliseconds; a browser that never settles the load must
  // still not keep the terminal from starting.
  await within(Promise.all(loads), FONT_WAIT_MS, []);
}

/** The longest the words wait for a font. */
const FONT_WAIT_MS = 1_500;
