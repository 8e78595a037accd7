/**
 * The remembering `t` says exactly what i18next says, in each language, for plain calls (plurals,
 * values, numbers) and for calls it passes through, and never hands one call's text to another.
 */
import { describe, expect, it } from 'vitest';
import { ensureWords, i18next, startI18n } from '../../src/renderer/src/i18n';
import { memoT } from '../../src/renderer/src/i18n/memoT';

describe('memoT', () => {
  it('gives the same text as i18next, call after call, in English and Hindi', async () => {
    await startI18n('en');
    // Hindi's words are loaded apart from the first script (see i18n/index.ts).
    await ensureWords('hi');
    for (const language of ['en', 'hi']) {
      const t = i18next.getFixedT(language);
      const memo = memoT(t);
      const calls: [string, Record<string, unknown>?][] = [
        ['common:order.items', { count: 1 }],
        ['common:order.items', { count: 2 }],
        ['common:order.units', { count: 100000 }],
        ['common:order.noCustomer'],
        ['common:summary.units', { item: 'Milk', units: 3, count: 3 }],
        ['common:no.such.key'],
      ];
      for (let round = 0; round < 2; round++) {
        for (const [key, options] of calls) expect(memo(key, options as never), `${language} ${key} ${JSON.stringify(options)}`).toBe(t(key, options as never));
      }
      // Different values are different calls; a value of another type is not the same value.
      expect(memo('common:order.items', { count: 1 })).not.toBe(memo('common:order.items', { count: 2 }));
      expect(memo('common:summary.units', { item: '1', units: 1, count: 1 })).toBe(t('common:summary.units', { item: '1', units: 1, count: 1 }));
      // Calls with objects in their values go straight through, every time.
      const nested = { item: { toString: () => 'Rice' } as unknown as string, units: 2, count: 2 };
      expect(memo('common:summary.units', nested)).toBe(t('common:summary.units', nested));
    }
    expect(memoT(i18next.getFixedT('hi'))('common:order.items', { count: 2 })).not.toBe(memoT(i18next.getFixedT('en'))('common:order.items', { count: 2 }));
  });
});
