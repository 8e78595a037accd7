/**
 * Hindi says one thing one way (issue 40, item 12): "Save" is सहेजें in every panel (it was सेव करें
 * in Settings and the invoice, सहेजें in intake and printing), and what was saved is सहेजा गया.
 * Plain Node: the language files are read from disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const HINDI = path.resolve(__dirname, '../../src/renderer/src/i18n/locales/hi');

/** Every Hindi string, as "<file>: <key path>" -> words. */
function hindiStrings(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (where: string, value: unknown): void => {
    if (typeof value === 'string') out.set(where, value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(`${where}.${k}`, v);
  };
  for (const file of readdirSync(HINDI).filter((f) => f.endsWith('.json'))) walk(file, JSON.parse(readFileSync(path.join(HINDI, file), 'utf8')));
  return out;
}

describe('Hindi words', () => {
  it('says Save as सहेजें everywhere, never the English loan सेव (सेवा, service, is another word)', () => {
    const loans = [...hindiStrings()].filter(([, words]) => /सेव(?!ा)/.test(words)).map(([where, words]) => `${where}: ${words}`);
    expect(loans).toEqual([]);
  });

  it('says what was saved one way, सहेजा गया (not सहेज लिया in one panel and सहेजा गया in the next)', () => {
    const other = [...hindiStrings()].filter(([, words]) => words.includes('सहेज लिया')).map(([where, words]) => `${where}: ${words}`);
    expect(other).toEqual([]);
  });
});
