/**
 * A modal window on the native <dialog>: the browser keeps focus inside it, makes the page
 * behind inert and closes it on Escape.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useWords } from '../i18n/useWords';
import { useUi } from '../store/ui';
import { NoticeError } from './NoticeLine';

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

  useEffect(() => {
    const el = ref.current;
    if (el && !el.open) el.showModal();
    useUi.getState().dialogOpened();
    return () => {
      el?.close();
      useUi.getState().dialogClosed();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${tone}`}
      aria-labelledby={titleId}
      data-testid={testId}
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
        <NoticeError inDialog />
        <div className="dialog-actions">{actions}</div>
      </div>
    </dialog>
  );
}
