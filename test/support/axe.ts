/** axe-core run in a page (the e2e screens and the fleet page): its findings, rule by rule. */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One rule axe-core found broken, with the nodes. */
export interface AxeFinding {
  readonly rule: string;
  readonly impact: string | null;
  readonly nodes: string[];
}

/** Runs axe-core (WCAG 2.x A and AA rules and best practices) on the page as it is now. */
export async function axe(page: Page): Promise<AxeFinding[]> {
  // Evaluated, not a <script> tag: the app's CSP rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[]; failureSummary?: string }[] }[] }> } };
    const result = await w.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
  });
}
