/**
 * A message a panel keeps (a Said) is how to word it, not words: the same Said reads in each
 * language it is worded in, a refusal by its code with its values, our own words by their key;
 * a code no file knows keeps the engine's sentence in every language.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import enProblems from '../../src/renderer/src/i18n/locales/en/problems.json';
import hiProblems from '../../src/renderer/src/i18n/locales/hi/problems.json';
import enSettings from '../../src/renderer/src/i18n/locales/en/settings.json';
import hiSettings from '../../src/renderer/src/i18n/locales/hi/settings.json';
import enStaff from '../../src/renderer/src/i18n/locales/en/staff.json';
import hiStaff from '../../src/renderer/src/i18n/locales/hi/staff.json';
import { ensureWords, i18next, startI18n } from '../../src/renderer/src/i18n';
import { type Said, saidNotOk, saidOk, saidRefused } from '../../src/renderer/src/i18n/said';

/** The Said's words as a panel draws them in `language`. */
const wordedIn = (said: Said, language: 'en' | 'hi'): string => said.words(i18next.getFixedT(language), `${language}-IN`);
const named = (sentence: string, name: string): string => sentence.replace('{{name}}', name);

describe('said', () => {
  beforeAll(async () => {
    await startI18n('en');
    await ensureWords('hi');
  });

  it("a refusal from the engine is worded by its code and values in each language, and is not ok", () => {
    const said = saidRefused({ message: 'There is already a packer called Asha.', code: 'STAFF_NAME_TAKEN', values: { name: 'Asha' } });
    expect(said.ok).toBe(false);
    expect(wordedIn(said, 'en')).toBe(named(enProblems.STAFF_NAME_TAKEN, 'Asha'));
    expect(wordedIn(said, 'hi')).toBe(named(hiProblems.STAFF_NAME_TAKEN, 'Asha'));
  });

  it("a code no file knows keeps the engine's sentence in every language", () => {
    const said = saidRefused({ message: 'Something new the engine says.', code: 'NO_SUCH_CODE_YET' });
    expect(wordedIn(said, 'en')).toBe('Something new the engine says.');
    expect(wordedIn(said, 'hi')).toBe('Something new the engine says.');
  });

  it('our own words are worded when drawn, in the language of that moment', () => {
    const added = saidOk((t) => t('staff:settings.added', { name: 'Asha' }));
    expect(added.ok).toBe(true);
    expect(wordedIn(added, 'en')).toBe(named(enStaff.settings.added, 'Asha'));
    expect(wordedIn(added, 'hi')).toBe(named(hiStaff.settings.added, 'Asha'));
    const wrong = saidNotOk((t) => t('settings:pin.wrong'));
    expect(wrong.ok).toBe(false);
    expect(wordedIn(wrong, 'en')).toBe(enSettings.pin.wrong);
    expect(wordedIn(wrong, 'hi')).toBe(hiSettings.pin.wrong);
  });
});
