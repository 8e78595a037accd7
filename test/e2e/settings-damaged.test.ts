/**
 * A settings file the terminal cannot read is said on the sync bar, in the staff's language, not
 * only in a log line: a counter that quietly started on other settings would take orders from the
 * wrong service, or none. Real Chromium against the web harness.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTerminal } from './support';

describe('a damaged settings file', () => {
  for (const [language, words] of [
    ['en', "The terminal's settings file was damaged"],
    ['hi', 'टर्मिनल की सेटिंग्स फ़ाइल खराब हो गई थी'],
  ] as const)
    it(`is said on the sync bar (${language})`, async () => {
      const t = await openTerminal({
        settings: { language },
        prepare: (dir) => writeFileSync(join(dir, 'settings.json'), '{"version":1,"environment":"training","preferences":{"sounds":tr'),
      });
      try {
        await t.page.getByTestId('sync-message').filter({ hasText: words }).waitFor({ timeout: 10_000 });
        expect(t.problems).toEqual([]);
      } finally {
        await t.close();
      }
    });
});
