/**
 * A new badge for a packer, asked first: the old badge stops working at once, at every counter of
 * the store (a lost badge must not sign anyone in), so a tap meant for Change PIN beside it must
 * not do it. Once made, the new badge is offered for printing, with the old one named as dead.
 */
import { useState } from 'react';
import type { StaffMember } from '../../../../shared/ipc';
import { type Said, saidRefused } from '../../i18n/said';
import { useWords } from '../../i18n/useWords';
import { command } from '../../intents';
import { printBadges } from '../../print';
import { Dialog } from '../Dialog';
import { SaidLine } from '../SaidLine';

export function NewBadgeDialog({ member, pin, onMade, onClose }: { member: StaffMember; pin: string; onMade: () => void; onClose: () => void }) {
  const { t } = useWords();
  const [made, setMade] = useState<StaffMember | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Said | null>(null);
  const make = async () => {
    if (busy) return;
    setBusy(true);
    const reply = await command('staff.update', { pin, id: member.id, newBadge: true });
    setBusy(false);
    if (reply.ok) {
      setMade(reply.value);
      onMade();
    } else setProblem(saidRefused(reply.problem));
  };

  if (made)
    return (
      <Dialog
        title={t('staff:newBadge.madeTitle', { name: made.name })}
        onClose={() => onClose()}
        testId="new-badge-dialog"
        actions={
          <>
            <button type="button" className="button" onClick={() => onClose()} data-testid="new-badge-later">
              {t('staff:newBadge.later')}
            </button>
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                void printBadges([made]);
                onClose();
              }}
              data-testid="new-badge-print"
            >
              {t('staff:newBadge.print')}
            </button>
          </>
        }
      >
        <p data-testid="new-badge-made">{t('staff:newBadge.made', { name: made.name, badge: made.badge, old: member.badge })}</p>
      </Dialog>
    );

  return (
    <Dialog
      title={t('staff:newBadge.askTitle', { name: member.name })}
      onClose={() => onClose()}
      tone="danger"
      testId="new-badge-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={() => onClose()} data-testid="new-badge-keep">
            {t('staff:newBadge.keep')}
          </button>
          <button type="button" className="button button-danger" disabled={busy} onClick={() => void make()} data-testid="new-badge-confirm">
            {t('staff:newBadge.confirm')}
          </button>
        </>
      }
    >
      <p>{t('staff:newBadge.ask', { name: member.name, old: member.badge })}</p>
      {problem && <SaidLine said={problem} look="inline" testId="new-badge-problem" />}
    </Dialog>
  );
}
