/**
 * The languages the terminal offers its staff. The settings schema takes its codes from here, so
 * a language is chosen and validated the same way in every process; the renderer's words for it
 * live in `src/renderer/src/i18n/locales/<code>/`. Adding one (Tamil, Kannada, Marathi, Bengali…)
 * is one line here plus its folder of translation files.
 */

/** Code (translation folder), Intl locale for numbers, money and times, and the language's own name. */
export const LANGUAGES = [
  { code: 'en', locale: 'en-IN', name: 'English' },
  { code: 'hi', locale: 'hi-IN', name: 'हिन्दी' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** The language used when none is chosen, and for any word a language lacks. */
export const FALLBACK_LANGUAGE: LanguageCode = 'en';

/** Every language code, as zod's enum wants it (a non-empty tuple). */
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];
