/**
 * The Electron printing glue (src/main/printing.ts) against a stand-in for webContents: which
 * options reach webContents.print for each setting, how its callback's answers become outcomes and
 * problems, and the printer list.
 */
import { describe, expect, it } from 'vitest';
import { createElectronPrinting, printOptions, type PrintingContents, type PrintOptionsLike } from '../../src/main/printing';

function contents(answer: { success: boolean; reason?: string } = { success: true }) {
  const printed: PrintOptionsLike[] = [];
  let destroyed = false;
  const c: PrintingContents & { printed: PrintOptionsLike[]; destroy(): void } = {
    printed,
    destroy: () => (destroyed = true),
    isDestroyed: () => destroyed,
    print: (options, callback) => {
      printed.push(options);
      setTimeout(() => callback(answer.success, answer.reason ?? ''), 1);
    },
    getPrintersAsync: async () => [
      { name: 'EPSON_TM_T82', displayName: 'EPSON TM-T82', description: 'Receipt printer' },
      { name: 'Office_A4', displayName: '', description: '' },
      { name: ' ', displayName: 'Broken driver', description: '' },
    ],
  };
  return c;
}

describe('Electron printing', () => {
  it('prints silently to the printer set in settings, on an 80 mm roll as long as the content', async () => {
    const c = contents();
    const port = createElectronPrinting(() => c);
    expect(await port.print({ paper: 'thermal80', printer: 'EPSON_TM_T82', contentHeightMm: 140 })).toEqual({ ok: true, value: { outcome: 'printed' } });
    expect(c.printed).toEqual([
      {
        silent: true,
        deviceName: 'EPSON_TM_T82',
        printBackground: true,
        color: false,
        margins: { marginType: 'none' },
        pageSize: { width: 80_000, height: 148_000 },
      },
    ]);
  });

  it('shows the print dialog when no printer is set, on A4 when that is the paper', () => {
    const options = printOptions({ paper: 'a4', printer: null, contentHeightMm: 400 });
    expect(options).toMatchObject({ silent: false, pageSize: 'A4' });
    expect(options).not.toHaveProperty('deviceName');
  });

  it('a closed dialog is a cancel, not a failure; a printer that refuses is a problem in words', async () => {
    const cancelled = createElectronPrinting(() => contents({ success: false, reason: 'cancelled' }));
    expect(await cancelled.print({ paper: 'a4', printer: null, contentHeightMm: 10 })).toEqual({ ok: true, value: { outcome: 'cancelled' } });
    const failed = createElectronPrinting(() => contents({ success: false, reason: 'failed' }));
    const r = await failed.print({ paper: 'thermal80', printer: 'EPSON_TM_T82', contentHeightMm: 10 });
    expect(r).toMatchObject({ ok: false, problem: { kind: 'transient', code: 'PRINT_FAILED', message: expect.stringContaining('EPSON_TM_T82 did not take the page (failed)') } });
  });

  it('without a live window nothing is printed and it says why', async () => {
    const c = contents();
    c.destroy();
    for (const port of [createElectronPrinting(() => null), createElectronPrinting(() => c)]) {
      expect(await port.print({ paper: 'a4', printer: null, contentHeightMm: 10 })).toMatchObject({ ok: false, problem: { code: 'NO_WINDOW' } });
      expect(await port.printers()).toMatchObject({ ok: false, problem: { code: 'NO_WINDOW' } });
    }
    expect(c.printed).toEqual([]);
  });

  it('lists the system printers by system name, with a display name to show', async () => {
    const port = createElectronPrinting(() => contents());
    expect(await port.printers()).toEqual({
      ok: true,
      value: [
        { name: 'EPSON_TM_T82', displayName: 'EPSON TM-T82', description: 'Receipt printer' },
        { name: 'Office_A4', displayName: 'Office_A4', description: '' },
      ],
    });
  });
});
