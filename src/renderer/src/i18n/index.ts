/**
 * The renderer's words: i18next with react-i18next. Every string a packer or manager sees is a key
 * in `locales/<language>/<namespace>.json`; a namespace is one file per language, picked up here
 * by file name, so adding a language (Tamil, Kannada, Marathi, Bengali…) is one folder of files
 * plus one line in LANGUAGES. English is the fallback for a key a language lacks (a test keeps
 * every language complete).
 */
/// <reference types="vite/client" />
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** The languages the terminal offers: code (file folder), Intl locale for numbers and times, own name. */
export const LANGUAGES = [
  { code: 'en', locale: 'en-IN', name: 'English' },
  { code: 'hi', locale: 'hi-IN', name: 'हिन्दी' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const FALLBACK_LANGUAGE: LanguageCode = 'en';

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

/** Starts i18next for the renderer in the given language; resolves when its words are ready. */
export async function startI18n(language: string = FALLBACK_LANGUAGE): Promise<I18n> {
  const resources = translationResources();
  await i18next.use(initReactI18next).init({
    resources,
    lng: isLanguageCode(language) ? language : FALLBACK_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: Object.keys(resources[FALLBACK_LANGUAGE] ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes what it renders.
    returnNull: false,
  });
  return i18next;
}

export { i18next };
