/**
 * The renderer's words: i18next with react-i18next. Every string a packer or manager sees is a key
 * in `locales/<language>/<namespace>.json`; a namespace is one file per language, picked up here
 * by file name, so adding a language (Tamil, Kannada, Marathi, Bengali…) is one folder of files
 * plus one line in `src/shared/languages.ts`. English is the fallback for a key a language lacks
 * (a test keeps every language complete).
 */
/// <reference types="vite/client" />
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, type LanguageCode } from '../../../shared/languages';
import { printableText } from '../../../shared/protocol/orderId';
import { formatNumber } from '../format/number';
import { loadScriptFonts } from './fonts';

export { FALLBACK_LANGUAGE, LANGUAGES, type LanguageCode };

type Messages = { [key: string]: string | Messages };

/**
 * English (the fallback, needed for any key a language lacks) is in the first script; every other
 * language is a module of its own, loaded when the terminal starts in it or switches to it, and
 * otherwise with the later screens (loadOtherLanguages), so a later switch finds it in memory. Both languages'
 * words in the first script were about 100 kB more for it to fetch and parse.
 */
const fallbackFiles = import.meta.glob<Messages>('./locales/en/*.json', { eager: true, import: 'default' });
const laterFiles = import.meta.glob<Messages>(['./locales/*/*.json', '!./locales/en/*.json'], { import: 'default' });

/** `./locales/hi/common.json` -> ['hi', 'common']. */
function fileOf(path: string): [string, string] | null {
  const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  return match ? [match[1]!, match[2]!] : null;
}

/** The fallback language's words, as `{ en: { namespace: messages } }`. */
function fallbackResources(): Record<string, Record<string, Messages>> {
  const resources: Record<string, Record<string, Messages>> = {};
  for (const [path, messages] of Object.entries(fallbackFiles)) {
    const file = fileOf(path);
    if (file) (resources[file[0]] ??= {})[file[1]] = messages;
  }
  return resources;
}

const loading = new Map<string, Promise<Record<string, Messages>>>();

/** A language's words by namespace, loaded once (the fallback's are in the first script). */
function loadWords(language: string): Promise<Record<string, Messages>> {
  let words = loading.get(language);
  if (!words) {
    const mine = Object.entries(laterFiles).filter(([path]) => fileOf(path)?.[0] === language);
    words = Promise.all(mine.map(async ([path, load]) => [fileOf(path)![1], await load()] as const)).then((pairs) => Object.fromEntries(pairs));
    // A failed load (a file missing from a broken install) is tried again at the next switch.
    words.catch(() => loading.delete(language));
    loading.set(language, words);
  }
  return words;
}

/** Puts a language's words into i18next (once started) before it is shown; resolves once they are in. */
export async function ensureWords(language: string): Promise<void> {
  if (language === FALLBACK_LANGUAGE || i18next.hasResourceBundle(language, 'common')) return;
  const words = await loadWords(language);
  for (const [namespace, messages] of Object.entries(words)) i18next.addResourceBundle(language, namespace, messages, true, true);
}

/**
 * Loads the languages not shown yet, so a switch to one draws at once. Called with the later
 * screens once the queue is up and the page idle (Shell.tsx): at start the page is idle too while
 * it waits for the queue's head, and parsing the words then held the first rows back.
 */
export function loadOtherLanguages(): Promise<void> {
  return Promise.all(LANGUAGES.filter(({ code }) => code !== FALLBACK_LANGUAGE).map(({ code }) => ensureWords(code))).then(() => undefined);
}

/** Whether a value names a language the terminal offers. */
export function isLanguageCode(value: unknown): value is LanguageCode {
  return LANGUAGES.some((l) => l.code === value);
}

/** The Intl locale (en-IN, hi-IN) for a language code. */
export function intlLocale(language: string): string {
  return LANGUAGES.find((l) => l.code === language)?.locale ?? 'en-IN';
}

/**
 * Starts i18next for the renderer in the given language; resolves when its words are ready.
 * Numbers inside sentences go through `{{n, num}}`, which formats with the language's Intl locale
 * (en-IN, hi-IN: lakh grouping), not i18next's bare language code.
 */
export async function startI18n(language: string = FALLBACK_LANGUAGE): Promise<I18n> {
  const resources = fallbackResources();
  const lng = isLanguageCode(language) ? language : FALLBACK_LANGUAGE;
  // The terminal's language's words before the first render, as the fallback's.
  // Words that cannot be loaded (a file missing from a broken install) leave English showing, not a blank screen.
  const [words] = await Promise.all([lng === FALLBACK_LANGUAGE ? null : loadWords(lng).catch(() => null), loadScriptFonts()]);
  if (words) resources[lng] = words;
  await i18next.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: Object.keys(resources[FALLBACK_LANGUAGE] ?? {}),
    defaultNS: 'common',
    // React escapes HTML; what i18next escapes is what comes from outside in a value (a customer's,
    // packer's or counter's name): its direction controls are shown, not obeyed (printableText).
    interpolation: { escapeValue: true, escape: printableText },
    returnNull: false,
    // An empty translation is a missing one: the English word shows instead of a blank.
    returnEmptyString: false,
    // The shown language's words are ready before the first render: nothing to suspend for, and a
    // component suspending with no boundary above it would blank the screen.
    react: { useSuspense: false },
  });
  i18next.services.formatter?.add('num', (value: unknown, lng: string | undefined) =>
    typeof value === 'number' ? formatNumber(value, intlLocale(lng ?? FALLBACK_LANGUAGE)) : String(value),
  );
  // A counter's name inside a sentence: the hub's own names ("Counter 2") in the sentence's language.
  i18next.services.formatter?.add('counter', (value: unknown, lng: string | undefined) => counterName(String(value), lng));
  setDocumentLanguage(lng);
  return i18next;
}

/**
 * A counter's name as the language says it: the hub names counters "Counter 1", "Counter 2"… (in
 * English, core/hub/counter-names.ts), which a Hindi sentence says "काउंटर 2"; a name a manager
 * gave ("Billing") is said as given. Sentences take it through `{{counter, counter}}`.
 */
export function counterName(name: string, lng: string = i18next.language): string {
  const numbered = /^Counter (\d{1,3})$/.exec(name.trim());
  // A name given on another counter is text from outside: its direction controls are shown, not obeyed.
  return numbered ? i18next.t('hub:numbered', { lng, n: numbered[1] }) : printableText(name);
}

/** Shows the terminal in `language` from now on (words, numbers, the page's lang for fonts and readers). */
export async function showLanguage(language: string): Promise<void> {
  const lng = isLanguageCode(language) ? language : FALLBACK_LANGUAGE;
  await Promise.all([loadScriptFonts(), ensureWords(lng).catch(() => undefined)]);
  if (i18next.language !== lng) await i18next.changeLanguage(lng);
  setDocumentLanguage(lng);
}

function setDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = intlLocale(language);
}

/** The current language's Intl locale, for code outside React (intents, stores). */
export function currentLocale(): string {
  return intlLocale(i18next.language || FALLBACK_LANGUAGE);
}

export { i18next };
