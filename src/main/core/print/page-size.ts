/** Paper sizes for Chromium's printing (Electron's webContents.print, page.pdf in tests). */
import type { Paper } from '../../../shared/ipc';

/** The roll's width; the slip is laid out 72 mm wide inside the @page margins (print.css). */
export const THERMAL_WIDTH_MM = 80;
/** The thermal @page margin on every side (print.css says the same). */
export const THERMAL_MARGIN_MM = 4;
/** A thermal page is never shorter than this, so a tiny slip still clears the printer's cutter. */
export const THERMAL_MIN_HEIGHT_MM = 60;
/** Chromium refuses page sizes beyond a few metres; a pick list longer than this runs on over pages. */
export const THERMAL_MAX_HEIGHT_MM = 3_000;

/** A page size in millimetres, or A4 by name. */
export type PageSize = { readonly kind: 'named'; readonly name: 'A4' } | { readonly kind: 'custom'; readonly widthMm: number; readonly heightMm: number };

/**
 * The page for a paper: A4 as a named size; the thermal roll 80 mm wide and as long as the
 * content plus its margins (rounded up to whole millimetres), so the printer cuts right after the
 * last line instead of feeding a sheet's length of blank paper.
 */
export function pageSizeFor(paper: Paper, contentHeightMm: number): PageSize {
  if (paper === 'a4') return { kind: 'named', name: 'A4' };
  const wanted = Math.ceil(contentHeightMm + 2 * THERMAL_MARGIN_MM);
  const height = Math.min(THERMAL_MAX_HEIGHT_MM, Math.max(THERMAL_MIN_HEIGHT_MM, wanted));
  return { kind: 'custom', widthMm: THERMAL_WIDTH_MM, heightMm: height };
}

/** Electron's `pageSize` option: a name, or width and height in microns. */
export function electronPageSize(size: PageSize): 'A4' | { width: number; height: number } {
  return size.kind === 'named' ? size.name : { width: size.widthMm * 1_000, height: size.heightMm * 1_000 };
}
