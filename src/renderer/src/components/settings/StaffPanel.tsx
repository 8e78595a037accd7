/**
 * Settings -> Staff (behind the manager PIN): the store's packers with their badges and optional
 * personal PINs, badges printed from here, and the scan-to-pack switch. A store with no names runs
 * on the counter's name.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import type { StaffMember } from '../../../../shared/ipc';
import { useWords } from '../../i18n/useWords';
import { StoreWide } from '../hub/StoreWide';
import { SaidLine } from '../SaidLine';
import { type Said, saidOk, saidRefused } from '../../i18n/said';
import type { Wording } from '../../i18n/words';
import { command } from '../../intents';
import { printBadges } from '../../print';
import { PIN_PATTERN, PinField } from '../PinField';
import { useSettingsDraft } from './useSettingsDraft';
import { SaveResultLine } from './SaveResultLine';
import { usePacker } from '../../staff/store';
import { printableText } from '../../../../shared/protocol/orderId';
import { NewBadgeDialog } from './NewBadgeDialog';

export function StaffPanel({ pin }: { pin: string }) {
  const { t } = useWords();
  const id = useId();
  const [members, setMembers] = useState<StaffMember[] | null>(null);
  const [name, setName] = useState('');
  const [packerPin, setPackerPin] = useState('');
  const [said, setSaid] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const [pinFor, setPinFor] = useState<StaffMember | null>(null);
  const [badgeFor, setBadgeFor] = useState<StaffMember | null>(null);

  const reload = useCallback(async () => {
    const reply = await command('staff.list', { pin });
    if (reply.ok) setMembers(reply.value);
    else setSaid(saidRefused(reply.problem));
  }, [pin]);
  // Read again on every staff.changed too: with a store hub another counter may change the list.
  const heard = usePacker((s) => s.status);
  useEffect(() => {
    void reload();
  }, [reload, heard]);

  /**
   * Runs a change, says its outcome (`done` when it went) and, when it went, does `went` in the
   * same render as the words, then reads the list again. `went` does not wait for the list: a
   * manager who reads "added" may already be typing the next name, which a late clear would erase.
   */
  const run = async (change: () => ReturnType<typeof command>, done: Wording, went?: () => void): Promise<void> => {
    if (busy) return;
    setBusy(true);
    const reply = await change();
    setBusy(false);
    setSaid(reply.ok ? saidOk(done) : saidRefused(reply.problem));
    if (!reply.ok) return;
    went?.();
    await reload();
  };

  const add = async () => {
    const n = name.trim();
    if (!n || (packerPin !== '' && !PIN_PATTERN.test(packerPin))) return;
    const payload = packerPin ? { pin, name: n, packerPin } : { pin, name: n };
    await run(
      () => command('staff.add', payload),
      (t) => t('staff:settings.added', { name: n }),
      () => {
        setName('');
        setPackerPin('');
      },
    );
  };

  return (
    <section className="panel staff-panel" aria-labelledby={`${id}-t`} data-testid="staff-panel">
      <h2 id={`${id}-t`}>{t('staff:settings.title')}</h2>
      <ScanToPackSwitch pin={pin} />
      <p className="hint">{t('staff:settings.help')}</p>
      {members !== null && members.length === 0 && <p data-testid="staff-none">{t('staff:settings.none')}</p>}
      {members !== null && members.length > 0 && (
        <>
          <ul className="staff-list">
            {members.map((m) => (
              <li key={m.id} className="staff-row" data-testid="staff-row" data-name={m.name} data-badge={m.badge}>
                <span className="staff-name">{printableText(m.name)}</span>
                <span className="staff-badge">{m.badge}</span>
                <span className="staff-pin">{m.hasPin ? t('staff:settings.hasPin') : t('staff:settings.noPin')}</span>
                {/* The badge's two buttons together, then the PIN; Remove apart at the end. A new badge
                    is asked first (NewBadgeDialog): it sat between Change PIN and Remove and
                    replaced the badge at once. */}
                <span className="staff-actions">
                  <button type="button" className="button button-small" onClick={() => void printBadges([m])} data-testid="staff-print">
                    {t('staff:settings.printBadge')}
                  </button>
                  <button type="button" className="button button-small" onClick={() => setBadgeFor(m)} data-testid="staff-new-badge">
                    {t('staff:settings.newBadge')}
                  </button>
                  <button type="button" className="button button-small" onClick={() => setPinFor(m)}>
                    {m.hasPin ? t('staff:settings.changePin') : t('staff:settings.setPin')}
                  </button>
                  <button
                    type="button"
                    className="button button-small button-danger-outline staff-remove"
                    onClick={() => void run(() => command('staff.remove', { pin, id: m.id }), (t) => t('staff:settings.removed', { name: m.name }))}
                  >
                    {t('staff:settings.remove')}
                  </button>
                </span>
              </li>
            ))}
          </ul>
          <button type="button" className="button" onClick={() => void printBadges(members)} data-testid="staff-print-all">
            {t('staff:settings.printAll')}
          </button>
        </>
      )}
      <form
        className="staff-add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('staff:settings.name')}</label>
          <input
            id={`${id}-name`}
            className="text-input"
            value={name}
            maxLength={60}
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
            data-testid="staff-name"
          />
        </div>
        <PinField label={t('staff:settings.pinOptional')} value={packerPin} onChange={setPackerPin} testId="staff-pin" />
        <button type="submit" className="button button-primary" disabled={busy || name.trim() === ''} data-testid="staff-add">
          {t('staff:settings.add')}
        </button>
      </form>
      {said && <SaidLine said={said} look="inline" testId="staff-said" />}
      {badgeFor && (
        <NewBadgeDialog
          member={badgeFor}
          pin={pin}
          onMade={() => void reload()}
          onClose={() => setBadgeFor(null)}
        />
      )}
      {pinFor && (
        <PinEditor
          member={pinFor}
          onDone={(next) =>
            void run(
              () => command('staff.update', { pin, id: pinFor.id, packerPin: next }),
              (t) => (next === null ? t('staff:settings.pinCleared', { name: pinFor.name }) : t('staff:settings.pinSet', { name: pinFor.name })),
              () => setPinFor(null),
            )
          }
          onCancel={() => setPinFor(null)}
        />
      )}
    </section>
  );
}

/** Sets, changes or clears one packer's personal PIN. */
function PinEditor({ member, onDone, onCancel }: { member: StaffMember; onDone: (pin: string | null) => void; onCancel: () => void }) {
  const { t } = useWords();
  const [value, setValue] = useState('');
  return (
    <div className="staff-pin-editor" role="group" aria-label={t('staff:settings.pinFor', { name: member.name })}>
      <PinField label={t('staff:settings.pinFor', { name: member.name })} value={value} onChange={setValue} autoFocus />
      <button type="button" className="button button-primary" disabled={!PIN_PATTERN.test(value)} onClick={() => onDone(value)}>
        {t('staff:settings.savePin')}
      </button>
      {member.hasPin && (
        <button type="button" className="button" onClick={() => onDone(null)}>
          {t('staff:settings.clearPin')}
        </button>
      )}
      <button type="button" className="button button-quiet" onClick={onCancel}>
        {t('staff:settings.cancel')}
      </button>
    </div>
  );
}

/** The scan-to-pack switch, saved with the manager PIN like every setting. */
function ScanToPackSwitch({ pin }: { pin: string }) {
  const { t } = useWords();
  const { draft, change, save, busy, result } = useSettingsDraft(pin, (s) => ({ scanToPack: s.scanToPack }));
  if (!draft) return null;
  return (
    <form className="staff-scan-switch" onSubmit={(e) => void save(e)}>
      <label className="toggle">
        <input type="checkbox" checked={draft.scanToPack} onChange={(e) => change({ scanToPack: e.target.checked })} data-testid="scan-to-pack" />
        <span className="toggle-box" aria-hidden="true" />
        <span>{t('staff:settings.scanToPack')}</span>
      </label>
      <StoreWide />
      <button type="submit" className="button" disabled={busy} data-testid="scan-to-pack-save">
        {t('settings:form.save')}
      </button>
      <SaveResultLine result={result} saved={t('settings:form.saved')} />
    </form>
  );
}

