/**
 * The one line that tells the packer what just happened: why a tap was refused (stays until the
 * next action or dismissed), or a short confirmation (fades after a few seconds). A notice is kept
 * as how to word it and worded here, in the language shown: a switch re-words the one on screen.
 */
import { useEffect } from 'react';
import { useWords } from '../i18n/useWords';
import { useUi, type Notice } from '../store/ui';

const INFO_MS = 5_000;

export function NoticeLine() {
  const notice = useUi((s) => s.notice);
  const clear = useUi((s) => s.clearNotice);

  // A language switch leaves the notice (and its id) as it was: the fade keeps its time.
  useEffect(() => {
    if (!notice || notice.tone === 'error') return;
    const t = setTimeout(() => {
      if (useUi.getState().notice?.id === notice.id) clear();
    }, INFO_MS);
    return () => clearTimeout(t);
  }, [notice, clear]);

  // The live regions stay mounted so screen readers announce each new message.
  return (
    <div className="notice-slot">
      <NoticeError inDialog={false} />
      <div role="status" aria-relevant="additions" className={notice && notice.tone !== 'error' ? `notice notice-${notice.tone}` : 'notice-empty'} data-testid="notice-info">
        {notice && notice.tone !== 'error' && <NoticeText key={notice.id} notice={notice} />}
      </div>
    </div>
  );
}

/**
 * Why something was refused, until acknowledged. While a dialog is open the page behind it is
 * dimmed and out of reach, so the message shows inside the dialog instead: only one said since the
 * dialog opened (`after`, the last notice id then). A refusal from before ("Too many: Savlon…"
 * in "Which item is this?", a refused take-over in the next one's confirm) belongs to the screen,
 * and shows there again once the dialog closes.
 */
export function NoticeError({ inDialog, after = 0 }: { inDialog: boolean; after?: number }) {
  const { t } = useWords();
  const notice = useUi((s) => s.notice);
  const dialogOpen = useUi((s) => s.dialogs > 0);
  const clear = useUi((s) => s.clearNotice);
  const shown = notice?.tone === 'error' && inDialog === dialogOpen && notice.id > after ? notice : null;
  return (
    <div role="alert" aria-relevant="additions" className={shown ? 'notice notice-error' : 'notice-empty'} data-testid="notice-error">
      {shown && (
        <>
          <span className="notice-icon" aria-hidden="true">
            ✖
          </span>
          <NoticeText key={shown.id} notice={shown} />
          <button type="button" className="button button-small" onClick={clear}>
            {t('common:notice.ok')}
          </button>
        </>
      )}
    </div>
  );
}

/**
 * A notice's words in the language shown. A new notice is a new element (keyed by its id), which
 * the regions above announce ("additions"); a switch only changes this element's text, which they
 * do not, so the notice is not announced again as if it were new.
 */
function NoticeText({ notice }: { notice: Notice }) {
  const { t, locale } = useWords();
  return <span className="notice-text">{notice.words(t, locale)}</span>;
}
