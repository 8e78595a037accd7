/**
 * Keyboard shortcuts that work on every screen. Only keys a scanner never sends (function keys,
 * Escape, Ctrl+Z), so a scan can never trigger one.
 */
import { useEffect } from 'react';
import { undo } from '../intents';
import { useUi } from '../store/ui';
import { ORDER_ID_FIELD } from './OrderIdEntry';

export function GlobalKeys() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const ui = useUi.getState();
      if (e.key === 'F2') {
        e.preventDefault();
        document.getElementById(ORDER_ID_FIELD)?.focus();
      } else if (e.key === 'F3') {
        e.preventDefault();
        ui.show({ name: 'search' });
      } else if (e.key === 'F4') {
        e.preventDefault();
        ui.show({ name: 'outbox' });
      } else if (e.key === 'F9') {
        e.preventDefault();
        ui.show({ name: 'settings' });
      } else if (e.key === 'Escape') {
        // An open dialog handles its own Escape (the browser closes it).
        if (document.querySelector('dialog[open]')) return;
        // So does an open menu (the top bar's More): the browser closes it, and the screen stays.
        if (document.querySelector(':popover-open')) return;
        // A refusal is acknowledged first; short confirmations fade by themselves.
        if (ui.notice?.tone === 'error') ui.clearNotice();
        else if (ui.screen.name !== 'queue') ui.back();
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z' && ui.undo) {
        const target = e.target as HTMLElement | null;
        // Inside a text field Ctrl+Z undoes typing, as everywhere else.
        if (target?.closest('input, textarea')) return;
        e.preventDefault();
        void undo(ui.undo.entryId);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return null;
}
