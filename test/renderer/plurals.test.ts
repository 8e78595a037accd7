/**
 * Counts said through i18next's plural rules in both languages (issue 40, item 11): the store hub's
 * "restarted 1 time" (it said "restarted 1 times"), and the PIN pause's wait in the time words
 * ("1 s", not "1 seconds"). The language files as shipped, an i18next of their own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

const LOCALES = path.resolve(__dirname, '../../src/renderer/src/i18n/locales');

async function words(lng: 'en' | 'hi') {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const language of ['en', 'hi']) {
    resources[language] = {};
    for (const file of readdirSync(path.join(LOCALES, language)).filter((f) => f.endsWith('.json')))
      resources[language]![file.replace(/\.json$/, '')] = JSON.parse(readFileSync(path.join(LOCALES, language, file), 'utf8'));
  }
  const i = i18next.createInstance();
  await i.init({ resources: resources as never, lng, fallbackLng: 'en', interpolation: { escapeValue: false } });
  i.services.formatter?.add('num', (value: unknown) => String(value));
  return i.t.bind(i);
}

describe('counts in sentences', () => {
  it("says the hub's restarts with the right plural in English and Hindi", async () => {
    const en = await words('en');
    expect(en('hub:panel.serverRunning', { listen: '0.0.0.0:4222', count: 1 })).toBe('Running on 0.0.0.0:4222 (restarted 1 time)');
    expect(en('hub:panel.serverRunning', { listen: '0.0.0.0:4222', count: 2 })).toBe('Running on 0.0.0.0:4222 (restarted 2 times)');
    expect(en('hub:panel.serverRunning', { listen: '0.0.0.0:4222', count: 0 })).toBe('Running on 0.0.0.0:4222 (restarted 0 times)');
    const hi = await words('hi');
    for (const count of [0, 1, 2]) expect(hi('hub:panel.serverRunning', { listen: '0.0.0.0:4222', count })).toBe(`0.0.0.0:4222 पर चल रही है (${count} बार दोबारा शुरू हुई)`);
  });

  it('says how long a PIN sign-in pauses in the time words, never "1 seconds"', async () => {
    const en = await words('en');
    const said = en('problems:STAFF_PIN_PAUSED', { seconds: 1, wait: en('common:time.seconds', { count: 1 }) });
    expect(said).toBe('Too many wrong PINs. Scan your badge, or try again in 1 s.');
    expect(said).not.toMatch(/\d+ seconds/);
  });
});
