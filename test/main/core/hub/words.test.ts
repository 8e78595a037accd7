/** What the CLI says when joining or reaching the hub fails is what the screen says in English, and the screen has Hindi for it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HUB_PROBLEM_WORDS, type HubProblemKind } from '../../../../src/main/core/hub/nats/connection';
import { JOIN_CODE_WORDS, type JoinCodeProblemKind } from '../../../../src/main/core/hub/join-code';
import { REPO_ROOT } from '../../../support/paths';

const problems = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'src/renderer/src/i18n/locales', language, 'problems.json'), 'utf8')) as Record<string, string>;

// The renderer's keys for each kind (membership.ts maps problems to them).
const LINK: Record<HubProblemKind, string> = { wrongSecret: 'HUB_WRONG_SECRET', certificate: 'HUB_CERTIFICATE', noTls: 'HUB_NO_TLS', unreachable: 'HUB_UNREACHABLE', other: 'HUB_OTHER' };
const CODE: Record<JoinCodeProblemKind, string> = { typo: 'HUB_CODE_TYPO', newer: 'HUB_CODE_NEWER', notACode: 'HUB_CODE_NOT_A_CODE' };

describe('hub problem words', () => {
  it('the CLI and the screen say the same in English, and the screen has Hindi words', () => {
    const en = problems('en');
    const hi = problems('hi');
    const pairs: [string, string][] = [
      ...(Object.entries(LINK) as [HubProblemKind, string][]).map(([kind, key]): [string, string] => [key, HUB_PROBLEM_WORDS[kind]]),
      ...(Object.entries(CODE) as [JoinCodeProblemKind, string][]).map(([kind, key]): [string, string] => [key, JOIN_CODE_WORDS[kind]]),
    ];
    for (const [key, words] of pairs) {
      expect({ key, en: en[key] }).toEqual({ key, en: words });
      expect(hi[key]).toMatch(/[\u0900-\u097F]/);
    }
  });
});
