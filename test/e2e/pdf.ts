/** The page's print layout as a PDF and what can be read back from it (words, fonts), for the paper tests. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { pageSizeFor } from '../../src/main/core/print';
import { SCREENSHOT_DIR } from './support';

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

/** The PDF's words as laid out on the page (pdftotext -layout): columns kept apart by spaces. */
export function layoutText(pdf: string): string {
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
}

/** The PDF's first page as PNG beside the screenshots, for people to look at. */
export function keepAsPng(pdf: string, name: string): void {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', '-f', '1', '-l', '1', pdf, join(SCREENSHOT_DIR, name)]);
}

/** One word pdftotext finds, with its box in points, and the width of the page it is on. */
export interface PdfWord {
  readonly word: string;
  readonly xMin: number;
  readonly xMax: number;
  readonly yMin: number;
  readonly pageWidth: number;
}

/** Every word of the PDF with where it is drawn (pdftotext -bbox). */
export function pdfWords(pdf: string): PdfWord[] {
  const html = execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
  const out: PdfWord[] = [];
  let pageWidth = 0;
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  for (const m of html.matchAll(/<page width="([\d.]+)"|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)) {
    if (m[1] !== undefined) pageWidth = Number(m[1]);
    else out.push({ word: unescape(m[5] ?? ''), xMin: Number(m[2]), yMin: Number(m[3]), xMax: Number(m[4]), pageWidth });
  }
  return out;
}
