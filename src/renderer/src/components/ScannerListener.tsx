/**
 * Listens for the barcode scanner on every screen. Keys are watched before anything else sees
 * them; when a burst turns out to be a scan, its closing Enter is swallowed so it cannot also
 * press whatever button has focus. Text fields are left alone: a scan there fills the field
 * (that is how an invoice number is scanned), and Enter submits it as usual.
 */
import { useEffect, useMemo } from 'react';
import { i18next } from '../i18n';
import { openOrderById, refuse } from '../intents';
import { createScanDetector } from '../scanner/detector';
import { useStatus } from '../store/status';

/** True when keys typed at `target` belong to a text field. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image'].includes(target.type);
  }
  return false;
}

export function ScannerListener() {
  const prefix = useStatus((s) => s.settings?.scannerPrefix ?? '');
  const detector = useMemo(() => createScanDetector({ prefix }), [prefix]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.altKey || e.metaKey) return;
      if (isEditable(e.target)) {
        detector.reset();
        return;
      }
      // event.timeStamp is when the key arrived, even if the page was busy drawing meanwhile.
      const verdict = detector.key(e.key, e.timeStamp);
      if (!verdict.swallow) return;
      e.preventDefault();
      e.stopPropagation();
      if (verdict.kind !== 'scan') return;
      if (document.querySelector('dialog[open]')) {
        refuse(i18next.t('common:refusals.dialogOpen'));
        return;
      }
      void openOrderById(verdict.code);
    };
    const onBlur = () => detector.reset();
    window.addEventListener('keydown', onKey, { capture: true });
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('blur', onBlur);
    };
  }, [detector]);

  return null;
}
