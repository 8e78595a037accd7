/**
 * Settings -> Counters (manager): make this counter the store hub, or join one by its join code
 * (typed, or scanned from the join slip), see every counter of the store and the hub's health,
 * leave. A one-counter store never needs to open it.
 */
import { useId, useState } from 'react';
import type { CounterView, HubStatus } from '../../../../shared/hub';
import type { HubJoin } from '../../../../shared/ipc';
import type { Problem } from '../../../../shared/result';
import { formatAge, formatClock } from '../../format';
import { useNow } from '../../hooks/useNow';
import { useWords } from '../../i18n/useWords';
import { counterName } from '../../i18n';
import { StoreWide } from './StoreWide';
import { SaidLine } from '../SaidLine';
import { type Said, saidOk, saidRefused } from '../../i18n/said';
import { command } from '../../intents';
import { useHub } from '../../store/hub';
import { Dialog } from '../Dialog';
import { useSettingsDraft } from '../settings/useSettingsDraft';
import { printJoinSlip } from '../../print';
import { SaveResultLine } from '../settings/SaveResultLine';

export function CountersPanel({ pin }: { pin: string }) {
  const { t } = useWords();
  const status = useHub((s) => s.status);
  const [message, setMessage] = useState<Said | null>(null);
  const [join, setJoin] = useState<HubJoin | null>(null);
  const id = useId();
  const problem = (p: Problem) => setMessage(saidRefused(p));

  const afterChange = async () => {
    const reply = await command('hub.status', {});
    if (reply.ok) useHub.getState().setStatus(reply.value);
  };

  return (
    <section className="panel counters-panel" aria-labelledby={`${id}-t`} data-testid="counters-panel">
      <h2 id={`${id}-t`}>{t('hub:panel.title')}</h2>
      {!status || status.role === 'none' ? (
        <NoHub pin={pin} onJoin={setJoin} onDone={afterChange} onProblem={problem} onSay={setMessage} />
      ) : (
        <>
          <HubFacts status={status} />
          <CountersTable counters={status.counters} />
          <ClaimQuietForm pin={pin} />
          <div className="form-actions">
            {status.role === 'hub' && (
              <button
                type="button"
                className="button"
                data-testid="hub-show-code"
                onClick={async () => {
                  const reply = await command('hub.joinCode', { pin });
                  if (reply.ok) setJoin(reply.value);
                  else problem(reply.problem);
                }}
              >
                {t('hub:panel.showCode')}
              </button>
            )}
            <LeaveButton pin={pin} role={status.role} onDone={afterChange} onProblem={problem} onSay={setMessage} />
          </div>
        </>
      )}
      {join && <JoinCodeDialog join={join} onClose={() => setJoin(null)} />}
      {message && <SaidLine said={message} look="form" testId="counters-message" />}
    </section>
  );
}

interface ChangeProps {
  pin: string;
  onDone: () => Promise<void>;
  onProblem: (p: Problem) => void;
  onSay: (said: Said) => void;
}

function NoHub({ pin, onJoin, onDone, onProblem, onSay }: ChangeProps & { onJoin: (join: HubJoin) => void }) {
  const { t } = useWords();
  const id = useId();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const named = name.trim() ? { name: name.trim() } : {};

  const create = async () => {
    setBusy(true);
    const reply = await command('hub.create', { pin, ...named });
    setBusy(false);
    if (!reply.ok) return onProblem(reply.problem);
    onSay(saidOk((t) => t('hub:panel.created')));
    onJoin(reply.value);
    await onDone();
  };
  const joinHub = async () => {
    setBusy(true);
    const reply = await command('hub.join', { pin, code: code.trim(), ...named });
    setBusy(false);
    if (!reply.ok) return onProblem(reply.problem);
    const name = reply.value.counterName ?? '';
    onSay(saidOk((t) => t('hub:panel.joined', { name })));
    await onDone();
  };

  return (
    <>
      <p>{t('hub:panel.alone')}</p>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('hub:panel.name')}</label>
        <input id={`${id}-name`} className="text-input narrow" value={name} maxLength={40} placeholder={t('hub:panel.namePlaceholder')} onChange={(e) => setName(e.target.value)} data-testid="hub-name" />
      </div>
      <div className="form-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void create()} data-testid="hub-create">
          {t('hub:panel.create')}
        </button>
      </div>
      <div className="field">
        <label htmlFor={`${id}-code`}>{t('hub:panel.code')}</label>
        <input id={`${id}-code`} className="text-input" value={code} autoComplete="off" spellCheck={false} onChange={(e) => setCode(e.target.value)} data-testid="hub-code" />
      </div>
      <div className="form-actions">
        <button type="button" className="button button-primary" disabled={busy || code.trim() === ''} onClick={() => void joinHub()} data-testid="hub-join">
          {t('hub:panel.join')}
        </button>
      </div>
    </>
  );
}

function HubFacts({ status }: { status: HubStatus }) {
  const { t, locale } = useWords();
  const server = status.server;
  return (
    <dl className="facts" data-testid="hub-facts">
      <dt>{t('hub:panel.thisCounter')}</dt>
      <dd>{status.role === 'hub' ? t('hub:panel.isHub', { name: status.counterName ?? '' }) : counterName(status.counterName ?? '')}</dd>
      <dt>{t('hub:panel.link')}</dt>
      <dd data-testid="hub-mode">
        {t(`hub:mode.${status.mode}`)}
        {status.since !== null && ` · ${formatClock(status.since, locale)}`}
      </dd>
      <dt>{t('hub:panel.intake')}</dt>
      <dd>{status.intakeHolder ? counterName(status.intakeHolder.counterName) : t('hub:panel.intakeNobody')}</dd>
      {server && (
        <>
          <dt>{t('hub:panel.server')}</dt>
          <dd data-testid="hub-server">
            {server.running ? t('hub:panel.serverRunning', { listen: server.listen, count: server.restarts }) : t('hub:panel.serverStopped')}
            {server.problem && <> · {server.problem}</>}
          </dd>
        </>
      )}
      {status.problem && (
        <>
          <dt>{t('hub:panel.problem')}</dt>
          <dd className="form-error">{status.problem}</dd>
        </>
      )}
    </dl>
  );
}

/** How long a claim lasts without a tap: after it, another counter may take the order without Take over. */
function ClaimQuietForm({ pin }: { pin: string }) {
  const { t } = useWords();
  const id = useId();
  const { draft, change, save, busy, result } = useSettingsDraft(pin, ({ claimQuietMs }) => ({ claimQuietMs }));
  if (!draft) return null;
  const minutes = Math.round(draft.claimQuietMs / 60_000);
  return (
    <form className="settings-form" onSubmit={(e) => void save(e)} data-testid="claim-quiet-form">
      <div className="field">
        <label htmlFor={`${id}-quiet`}>{t('hub:panel.claimQuiet')}</label>
        <input
          id={`${id}-quiet`}
          className="text-input narrow"
          type="number"
          min={1}
          max={240}
          value={minutes}
          onChange={(e) => change({ claimQuietMs: Math.min(240, Math.max(1, Math.round(Number(e.target.value) || 1))) * 60_000 })}
        />
        <StoreWide />
      </div>
      <div className="form-foot">
        <button type="submit" className="button" disabled={busy}>
          {t('hub:panel.claimQuietSave')}
        </button>
        <SaveResultLine result={result} saved={t('hub:panel.claimQuietSaved')} />
      </div>
    </form>
  );
}

/** Every counter of the store: there or not, version, what it has waiting, its last send, its clock. */
function CountersTable({ counters }: { counters: readonly CounterView[] }) {
  const { t } = useWords();
  const now = useNow(5_000);
  if (counters.length === 0) return <p>{t('hub:panel.noCounters')}</p>;
  return (
    <table className="counters-table" data-testid="counters-table">
      <caption className="visually-hidden">{t('hub:panel.title')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('hub:table.name')}</th>
          <th scope="col">{t('hub:table.there')}</th>
          <th scope="col">{t('hub:table.version')}</th>
          <th scope="col">{t('hub:table.waiting')}</th>
          <th scope="col">{t('hub:table.lastSent')}</th>
          <th scope="col">{t('hub:table.clock')}</th>
        </tr>
      </thead>
      <tbody>
        {counters.map((c) => (
          <tr key={c.counterId} data-testid="counter-row" data-present={c.present}>
            <th scope="row">
              {counterName(c.counterName)}
              {c.isThisCounter && ` (${t('hub:table.thisOne')})`}
              {c.holdsIntake && ` · ${t('hub:table.intake')}`}
            </th>
            <td className={c.present ? 'form-ok' : 'form-error'}>{c.present ? t('hub:table.present') : t('hub:table.absent', { age: formatAge(c.at, now, t) })}</td>
            <td>{c.version}</td>
            <td>
              {c.tapsWaiting === 0 ? t('hub:table.none') : t('hub:table.waitingCount', { count: c.tapsWaiting, age: c.oldestWaitingAt !== null ? formatAge(c.oldestWaitingAt, now, t) : '—' })}
            </td>
            <td>{c.lastSentAt === null ? t('hub:table.never') : formatAge(c.lastSentAt, now, t)}</td>
            <td>{c.clockDifferenceMs === null ? '—' : t('hub:table.seconds', { n: Math.round(c.clockDifferenceMs / 1000) })}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LeaveButton({ pin, role, onDone, onProblem, onSay }: ChangeProps & { role: HubStatus['role'] }) {
  const { t } = useWords();
  const [asking, setAsking] = useState(false);
  const leave = async () => {
    const reply = await command('hub.leave', { pin });
    setAsking(false);
    if (!reply.ok) return onProblem(reply.problem);
    onSay(saidOk((t) => t('hub:panel.left')));
    await onDone();
  };
  return (
    <>
      <button type="button" className="button button-danger-outline" onClick={() => setAsking(true)} data-testid="hub-leave">
        {role === 'hub' ? t('hub:panel.stopHub') : t('hub:panel.leave')}
      </button>
      {asking && (
        <Dialog
          title={role === 'hub' ? t('hub:panel.stopHub') : t('hub:panel.leave')}
          onClose={() => setAsking(false)}
          tone="danger"
          testId="hub-leave-dialog"
          actions={
            <>
              <button type="button" className="button" onClick={() => setAsking(false)}>
                {t('hub:panel.stay')}
              </button>
              <button type="button" className="button button-danger" onClick={() => void leave()} data-testid="hub-leave-confirm">
                {role === 'hub' ? t('hub:panel.stopHub') : t('hub:panel.leave')}
              </button>
            </>
          }
        >
          <p>{role === 'hub' ? t('hub:panel.stopHubExplain') : t('hub:panel.leaveExplain')}</p>
        </Dialog>
      )}
    </>
  );
}

/** The join code as text and barcode, for another counter to type or scan; printable as a join slip. */
function JoinCodeDialog({ join, onClose }: { join: HubJoin; onClose: () => void }) {
  const { t } = useWords();
  return (
    <Dialog
      title={t('hub:code.title')}
      onClose={onClose}
      testId="join-code-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={() => void printJoinSlip(join.code, join.barcodeSvg)} data-testid="join-slip-print">
            {t('hub:code.print')}
          </button>
          <button type="button" className="button button-primary" onClick={onClose}>
            {t('hub:code.done')}
          </button>
        </>
      }
    >
      <div className="join-slip" data-testid="join-slip">
        <p>{t('hub:code.how')}</p>
        <img className="join-barcode" alt={t('hub:code.barcodeAlt')} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(join.barcodeSvg)}`} />
        <p className="join-code-text" data-testid="join-code-text">
          {join.code}
        </p>
        <p className="join-secret-note">{t('hub:code.keepSafe')}</p>
      </div>
    </Dialog>
  );
}
