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
import { formatNumber } from '../format/number';
import { loadScriptFonts } from './fonts';

export { FALLBACK_LANGUAGE, LANGUAGES, type LanguageCode };

type Messages = { [key: string]: string | Messages };

const files = import.meta.glob<Messages>('./locales/*/*.json', { eager: true, import: 'default' });

/** Every translation file, as `{ language: { namespace: messages } }`. */
export function translationResources(): Record<string, Record<string, Messages>> {
  const resources: Record<string, Record<string, Messages>> = {};
  for (const [path, messages] of Object.entries(files)) {
    const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match as unknown as [string, string, string];
    (resources[language] ??= {})[namespace] = messages;
  }
  return resources;
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
  const resources = translationResources();
  const lng = isLanguageCode(language) ? language : FALLBACK_LANGUAGE;
  await loadScriptFonts();
  await i18next.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: Object.keys(resources[FALLBACK_LANGUAGE] ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes what it renders.
    returnNull: false,
    // An empty translation is a missing one: the English word shows instead of a blank.
    returnEmptyString: false,
    // Every word is bundled and ready before the first render: nothing to suspend for, and a
    // component suspending with no boundary above it would blank the screen.
    react: { useSuspense: false },
  });
  i18next.services.formatter?.add('num', (value: unknown, lng: string | undefined) =>
    typeof value === 'number' ? formatNumber(value, intlLocale(lng ?? FALLBACK_LANGUAGE)) : String(value),
  );
  setDocumentLanguage(lng);
  return i18next;
}

/** Shows the terminal in `language` from now on (words, numbers, the page's lang for fonts and readers). */
export async function showLanguage(language: string): Promise<void> {
  const lng = isLanguageCode(language) ? language : FALLBACK_LANGUAGE;
  await loadScriptFonts();
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
