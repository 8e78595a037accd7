/** Every way joining or reaching the hub can fail has the same words on screen as in the CLI, in English and Hindi. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HUB_PROBLEM_CODES, HUB_PROBLEM_WORDS, type HubProblemKind } from '../../../../src/main/core/hub/connection';
import { JOIN_CODE_WORDS, parseJoinCode } from '../../../../src/main/core/hub/join-code';
import { REPO_ROOT } from '../../../support/paths';

const problems = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'src/renderer/src/i18n/locales', language, 'problems.json'), 'utf8')) as Record<string, string>;

describe('hub problem words', () => {
  it('each hub problem code has the CLI\'s English words and Hindi words of its own', () => {
    const en = problems('en');
    const hi = problems('hi');
    for (const [kind, code] of Object.entries(HUB_PROBLEM_CODES) as [HubProblemKind, string][]) {
      expect({ code, en: en[code] }).toEqual({ code, en: HUB_PROBLEM_WORDS[kind] });
      expect(hi[code]).toMatch(/[\u0900-\u097F]/);
    }
  });

  it('each join code problem has the CLI\'s English words and Hindi words of its own', () => {
    const en = problems('en');
    const hi = problems('hi');
    for (const text of ['hello', 'PD2-0000', 'PD1-0000']) {
      const parsed = parseJoinCode(text);
      if (parsed.ok) throw new Error('parsed');
      expect(en[parsed.problemCode]).toBe(JOIN_CODE_WORDS[parsed.kind]);
      expect(hi[parsed.problemCode]).toMatch(/[\u0900-\u097F]/);
    }
  });
});
