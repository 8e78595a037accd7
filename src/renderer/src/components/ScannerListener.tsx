/**
 * Listens for the barcode scanner on every screen. Keys are watched before anything else sees
 * them; when a burst turns out to be a scan, its closing Enter is swallowed so it cannot also
 * press whatever button has focus, or submit a field with half a code in it.
 *
 * In a text field the scanner's keys land in the field as they arrive (nothing is known to be a
 * scan before its Enter). At the Enter they are taken out again: a repeat of the last code within
 * 2 s is dropped (within 250 ms for a product on the packing checklist: scanner/repeat.ts); a new code goes whole to a field that takes scans (invoice, order number), and a
 * field that does not (settings) keeps the typed code and gets its Enter as usual.
 *
 * Outside fields, a code that looks like an order id opens that order; any other code, while an
 * order is open, is offered as that order's invoice number, never added as a new order. A burst at
 * the scanner's pace that is no code still takes its Enter there (detector.ts: `unread`).
 */
import { useEffect, useMemo } from 'react';
import { refuse, scanned, scanPacksProduct } from '../intents';
import { createScanDetector } from '../scanner/detector';
import { repeatWindowOf } from '../scanner/repeat';
import { offerScanToField, setFieldValue, textFieldOf } from '../scanner/fieldScan';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';

/** The field a burst began in and what it held just before its first key. */
interface BurstStart {
  readonly field: HTMLInputElement | HTMLTextAreaElement;
  readonly value: string;
}

export function ScannerListener() {
  const prefix = useStatus((s) => s.settings?.scannerPrefix ?? '');
  // Identical units on the packing checklist are scanned in quick succession: each read counts there.
  const detector = useMemo(() => createScanDetector({ prefix, repeatWindowMs: (code) => repeatWindowOf(scanPacksProduct(code)) }), [prefix]);

  useEffect(() => {
    let start: BurstStart | null = null;

    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.altKey || e.metaKey) return;
      const field = textFieldOf(e.target);
      if (e.target instanceof HTMLSelectElement) return;
      // keydown comes before the character lands, so this is the field as it was before the burst.
      const before = field?.value ?? '';
      // event.timeStamp is when the key arrived, even if the page was busy drawing meanwhile.
      const verdict = detector.key(e.key, e.timeStamp);
      if (e.key.length === 1 && detector.pending() === 1) start = field ? { field, value: before } : null;
      if (!verdict.swallow) return;
      const burst = start;
      start = null;

      if (field) {
        // A field keeps a burst that is no code, and its Enter, as typed (the invoice field records what it holds).
        if (verdict.kind === 'unread') return;
        const restore = () => {
          if (burst?.field === field) setFieldValue(field, burst.value);
        };
        if (verdict.kind === 'repeat') {
          e.preventDefault();
          e.stopPropagation();
          restore();
          const code = verdict.code;
          useUi.getState().say('info', (t) => t('shift:scan.repeatIgnored', { code }));
          return;
        }
        if (offerScanToField(field, verdict.code)) {
          e.preventDefault();
          e.stopPropagation();
          restore();
        }
        // A field that does not take scans keeps the code as typed, and its Enter, as before.
        return;
      }

      // Outside a field the scanner's Enter never reaches the focused control (the big button has
      // focus on an order): a scan, a repeat, or a burst that is no code, which is said.
      e.preventDefault();
      e.stopPropagation();
      if (verdict.kind === 'unread') useUi.getState().say('info', (t) => t('shift:scan.unread'));
      if (verdict.kind !== 'scan') return;
      if (document.querySelector('dialog[open]')) {
        refuse((t) => t('common:refusals.dialogOpen'));
        return;
      }
      scanned(verdict.code);
    };
    const onBlur = () => {
      detector.reset();
      start = null;
    };
    window.addEventListener('keydown', onKey, { capture: true });
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('blur', onBlur);
    };
  }, [detector]);

  return null;
}
