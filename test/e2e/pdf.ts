/** The page's print layout as a PDF and what can be read back from it (words, fonts), for the paper tests. */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pageSizeFor } from '../../src/main/core/print';

/** The page's print layout as a PDF in `dir`, on the paper the settings chose (as the Electron shell sizes it). */
export async function printToPdf(page: Page, dir: string, name: string): Promise<string> {
  const root = page.getByTestId('print-root');
  await page.locator('[data-testid="print-root"]:not([data-height-mm=""])').waitFor({ state: 'attached' });
  const paper = await root.getAttribute('data-paper');
  const size = pageSizeFor(paper === 'a4' ? 'a4' : 'thermal80', Number(await root.getAttribute('data-height-mm')));
  const pdf = await page.pdf(
    size.kind === 'named'
      ? { preferCSSPageSize: true, printBackground: true }
      : { width: `${size.widthMm}mm`, height: `${size.heightMm}mm`, printBackground: true },
  );
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

/** The PDF's words, whitespace collapsed. */
export function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** The fonts the PDF embeds, as pdffonts lists them. */
export function pdfFonts(pdf: string): string {
  return execFileSync('pdffonts', [pdf], { encoding: 'utf8' });
}
