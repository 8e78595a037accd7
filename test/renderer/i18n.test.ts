/**
 * The staff's languages stay complete: every namespace in every language, the same keys, the
 * plural forms each language needs (Intl.PluralRules), the same placeholders; every key the
 * renderer's source names exists in English; every code the engine refuses or warns with has
 * words. Plain Node: the files are read from disk and the source is scanned as text.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/shared/languages';
import { STATE_KEY } from '../../src/renderer/src/i18n/words';

const ROOT = path.resolve(__dirname, '../..');
const LOCALES = path.join(ROOT, 'src/renderer/src/i18n/locales');
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Messages = { [key: string]: string | Messages };

function flatten(messages: Messages, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(messages)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

/** `{ language: { namespace: flat keys } }` from the files on disk. */
function readLocales(): Map<string, Map<string, Map<string, string>>> {
  const all = new Map<string, Map<string, Map<string, string>>>();
  for (const language of readdirSync(LOCALES)) {
    const dir = path.join(LOCALES, language);
    if (!statSync(dir).isDirectory()) continue;
    const namespaces = new Map<string, Map<string, string>>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      namespaces.set(file.replace(/\.json$/, ''), flatten(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Messages));
    }
    all.set(language, namespaces);
  }
  return all;
}

/** Keys with plural suffixes folded: base key -> the plural categories present (empty for a plain key). */
function keyShapes(keys: Iterable<string>): Map<string, Set<string>> {
  const shapes = new Map<string, Set<string>>();
  for (const key of keys) {
    const m = PLURAL_SUFFIX.exec(key);
    const base = m ? key.slice(0, -m[0].length) : key;
    const set = shapes.get(base) ?? new Set<string>();
    if (m) set.add(m[1]!);
    shapes.set(base, set);
  }
  return shapes;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]!).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'locales' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

const locales = readLocales();
const english = locales.get('en')!;

describe('translation files', () => {
  it('has a folder for every language the terminal offers, and nothing else', () => {
    expect([...locales.keys()].sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  for (const { code, locale } of LANGUAGES) {
    it(`${code}: every namespace and key English has, with ${locale}'s plural forms and the same placeholders`, () => {
      const own = locales.get(code)!;
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      const problems: string[] = [];
      for (const [ns, enKeys] of english) {
        const keys = own.get(ns);
        if (!keys) {
          problems.push(`${ns}.json is missing`);
          continue;
        }
        const enShapes = keyShapes(enKeys.keys());
        const shapes = keyShapes(keys.keys());
        for (const [base, enPlural] of enShapes) {
          const plural = shapes.get(base);
          if (!plural) problems.push(`${ns}:${base} is missing`);
          else if (enPlural.size > 0) {
            for (const c of categories) if (!plural.has(c)) problems.push(`${ns}:${base}_${c} is missing`);
            // `zero` is i18next's own form for a count of 0 in every language ("Taps made now are kept", never "0 taps"): English's set decides.
            for (const c of plural) if (!categories.includes(c as Intl.LDMLPluralRule) && !(c === 'zero' && enPlural.has('zero'))) problems.push(`${ns}:${base}_${c} is not a ${locale} plural form`);
            if (enPlural.has('zero') && !plural.has('zero')) problems.push(`${ns}:${base}_zero is missing`);
          } else if (plural.size > 0) problems.push(`${ns}:${base} is plural here but not in English`);
        }
        for (const base of shapes.keys()) if (!enShapes.has(base)) problems.push(`${ns}:${base} is not in English`);
        for (const [key, text] of keys) {
          if (text.trim() === '') problems.push(`${ns}:${key} is empty`);
          const m = PLURAL_SUFFIX.exec(key);
          const base = m ? key.slice(0, -m[0].length) : key;
          const enText = enKeys.get(key) ?? enKeys.get(`${base}_other`) ?? enKeys.get(base);
          if (enText === undefined) continue;
          const allowed = new Set(placeholders(enText));
          for (const p of placeholders(text)) if (!allowed.has(p)) problems.push(`${ns}:${key} uses {{${p}}}, which English does not`);
        }
      }
      for (const ns of own.keys()) if (!english.has(ns)) problems.push(`${ns}.json has no English file`);
      expect(problems).toEqual([]);
    });
  }

  it('every key the renderer names exists in English', () => {
    const namespaces = [...english.keys()];
    const literal = new RegExp(`['"\`](${namespaces.join('|')}):([A-Za-z0-9_.]+)['"\`]`, 'g');
    const used = new Set<string>();
    for (const file of sourceFiles(path.join(ROOT, 'src/renderer/src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(literal)) used.add(`${m[1]}:${m[2]}`);
    }
    expect(used.size).toBeGreaterThan(150);
    const missing = [...used].filter((k) => {
      const [ns, key] = k.split(':') as [string, string];
      const keys = english.get(ns)!;
      return !keys.has(key) && !keys.has(`${key}_other`);
    });
    expect(missing).toEqual([]);
  });

  it('every order and fulfilment state the training sandbox hands out has words in every language', () => {
    // The sandbox is what staff learn on: a state it sends must not show as the service's English.
    const states = new Set<string>();
    for (const file of ['sandbox/seed.ts', 'sandbox/server.ts'])
      for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/(?:orderState|fulfillmentState)\s*=?:?\s*'([^']+)'/g))
        states.add(m[1]!.trim().toUpperCase().replace(/[\s-]+/g, '_'));
    expect(states).toContain('PENDING');
    expect([...states].filter((s) => STATE_KEY[s] === undefined).sort()).toEqual([]);
    for (const [language, namespaces] of locales)
      expect([...states].filter((s) => !namespaces.get('common')!.has(`states.${s}`)).map((s) => `${language}: ${s}`)).toEqual([]);
  });

  it('every code the engine refuses with, and every sync notice, has words', () => {
    const codes = new Set<string>();
    const notices = new Set<string>();
    for (const dir of ['src/main', 'src/shared', 'src/web']) {
      for (const file of sourceFiles(path.join(ROOT, dir))) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/\bfail(?:<[^>]*>)?\((?:[^()]|\([^()]*\))*?'([A-Z][A-Z0-9_]{2,})'/g)) codes.add(m[1]!);
        for (const m of text.matchAll(/refuse\('([A-Z][A-Z0-9_]{2,})'/g)) codes.add(m[1]!);
        for (const m of text.matchAll(/problem: \{[^}]*code: '([A-Z][A-Z0-9_]{2,})'/g)) codes.add(m[1]!);
        // The sync bar's notices are said where the status is worked out (engine/status.ts).
        if (file.endsWith(path.join('engine', 'status.ts')))
          for (const m of text.matchAll(/\bsay\((?:[^()]|\([^()]*\))*?'([A-Z][A-Z0-9_]{2,})'/g)) notices.add(m[1]!);
      }
    }
    expect(codes.size).toBeGreaterThan(40);
    expect(notices.size).toBeGreaterThan(5);
    const problems = english.get('problems')!;
    const noticeKeys = keyShapes(english.get('notices')!.keys());
    expect([...codes].filter((c) => !problems.has(c)).sort()).toEqual([]);
    expect([...notices].filter((c) => !noticeKeys.has(c)).sort()).toEqual([]);
  });
});
