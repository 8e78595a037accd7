/**
 * A modal window on the native <dialog>: the page behind is inert and Escape closes it. Tab and
 * Shift+Tab go round the dialog's own controls (the browser would let focus leave to its own
 * toolbar), and when it closes the focus goes back to the control that opened it.
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useWords } from '../i18n/useWords';
import { lastNoticeId, useUi } from '../store/ui';
import { NoticeError } from './NoticeLine';
import { focusScreenStart } from './ScreenFocus';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The buttons that finish the job: kept in view at the bottom, with any refusal just above. */
  actions: ReactNode;
  tone?: 'normal' | 'danger';
  testId?: string;
}

export function Dialog({ title, onClose, children, actions, tone = 'normal', testId }: Props) {
  const { t } = useWords();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useRef(`dialog-title-${Math.random().toString(36).slice(2)}`).current;
  // Opens clean: a refusal said before it opened is not its own.
  const openedAfter = useRef(lastNoticeId()).current;

  useEffect(() => {
    const el = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (el && !el.open) el.showModal();
    useUi.getState().dialogOpened();
    return () => {
      el?.close();
      useUi.getState().dialogClosed();
      // Back where the packer was; if that control is gone (the order moved on), the screen's heading.
      if (opener && opener !== document.body && opener.isConnected) opener.focus();
      else focusScreenStart();
    };
  }, []);

  const keepTabInside = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const stops = focusableIn(ref.current);
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${tone}`}
      aria-labelledby={titleId}
      data-testid={testId}
      onKeyDown={keepTabInside}
      onCancel={(e) => {
        // Escape: let React decide (it unmounts the dialog), so state and DOM agree.
        e.preventDefault();
        onClose();
      }}
    >
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button button-quiet" onClick={onClose} aria-label={t('common:dialog.close')}>
          ✕ {t('common:dialog.close')}
        </button>
      </div>
      <div className="dialog-body">{children}</div>
      <div className="dialog-foot">
        <NoticeError inDialog after={openedAfter} />
        <div className="dialog-actions">{actions}</div>
      </div>
    </dialog>
  );
}

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** The controls Tab can reach inside `root`, in document order. */
function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.hasAttribute('disabled') && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden',
  );
}
