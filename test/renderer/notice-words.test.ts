/**
 * A notice is kept as how to word it, not as words: the same notice reads in each language it is
 * worded in (the notice line words it with the language shown), a problem by its code with its
 * values, and a switch of language leaves the notice and its id as they were.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import enProblems from '../../src/renderer/src/i18n/locales/en/problems.json';
import hiProblems from '../../src/renderer/src/i18n/locales/hi/problems.json';
import enShift from '../../src/renderer/src/i18n/locales/en/shift.json';
import hiShift from '../../src/renderer/src/i18n/locales/hi/shift.json';
import { ensureWords, i18next, startI18n } from '../../src/renderer/src/i18n';
import { recordInvoice, refuse } from '../../src/renderer/src/intents';
import { useUi, type Notice } from '../../src/renderer/src/store/ui';

const EAN = '8901030865275';

function shown(): Notice {
  const notice = useUi.getState().notice;
  if (!notice) throw new Error('no notice on screen');
  return notice;
}

/** The notice's words as the notice line draws them in `language`. */
const wordedIn = (notice: Notice, language: 'en' | 'hi'): string => notice.words(i18next.getFixedT(language), `${language}-IN`);

describe('notice words', () => {
  beforeAll(async () => {
    await startI18n('en');
    await ensureWords('hi');
  });

  it("a product's barcode refused as an invoice reads in English and in Hindi, and a switch keeps the notice", async () => {
    await expect(recordInvoice('ORD-0000001', EAN)).resolves.toBe(false);
    const notice = shown();
    expect(notice.tone).toBe('error');
    expect(wordedIn(notice, 'en')).toBe(enShift.scan.product.replace('{{code}}', EAN));
    expect(wordedIn(notice, 'hi')).toBe(hiShift.scan.product.replace('{{code}}', EAN));
    await i18next.changeLanguage('hi');
    await i18next.changeLanguage('en');
    expect(useUi.getState().notice).toBe(notice);
  });

  it("an engine's problem is worded by its code in each language; an unknown code keeps the engine's sentence", () => {
    refuse({ kind: 'invalid', message: 'The order service does not know ORD-7.', code: 'ORDER_NOT_FOUND', values: { orderId: 'ORD-7' } });
    const known = shown();
    expect(wordedIn(known, 'en')).toBe(enProblems.ORDER_NOT_FOUND.replace('{{orderId}}', 'ORD-7'));
    expect(wordedIn(known, 'hi')).toBe(hiProblems.ORDER_NOT_FOUND.replace('{{orderId}}', 'ORD-7'));

    refuse({ kind: 'invalid', message: 'Something new the engine says.', code: 'NO_SUCH_CODE_YET' });
    const unknown = shown();
    expect(wordedIn(unknown, 'en')).toBe('Something new the engine says.');
    expect(wordedIn(unknown, 'hi')).toBe('Something new the engine says.');
    // Two notices, two ids: each one is announced.
    expect(unknown.id).not.toBe(known.id);
  });
});
