/**
 * The fonts shipped with the app for scripts the counter PC may not have (main.tsx imports their
 * CSS so Vite bundles the files). A language's font is loaded before its words are shown: text
 * drawn while the font is still loading can stay as empty boxes in Chromium until it is drawn
 * again, and a packer must never see boxes.
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

/** The face the language buttons name each language in (layout.css: the bold file, shown only once in). */
const LANGUAGE_NAME_FONT = 'Packdesk Language Name';

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
  // The language buttons' own face (layout.css), which shows nothing until it is in.
  loads.push(document.fonts.load(`700 20px "${LANGUAGE_NAME_FONT}"`, SAMPLE['Noto Sans Devanagari']).catch(() => []));
  // The files are local, so this takes milliseconds; a browser that never settles the load must
  // still not keep the terminal from starting.
  await within(Promise.all(loads), FONT_WAIT_MS, []);
}

/** The longest the words wait for a font. */
const FONT_WAIT_MS = 1_500;
