/**
 * Settings -> Chain (manager): on the store hub PC, link the store to the chain's centre (its leaf
 * address, the store's id, the store's credentials file and the chain's CA certificate) or unlink
 * it; on any counter, the link's state in words as the hub PC sees it. A file is picked with an
 * <input type=file> and its text sent once to the main process, which keeps it; nothing here holds
 * it after the save. See docs/fleet.md.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { type ChainField, chainFieldErrors, type ChainLinkRequest, type ChainStatus, CHAIN_FILE_MAX_CHARS } from '../../../../shared/chain';
import { formatDayClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { SaidLine } from '../SaidLine';
import { type Said, saidOk, saidRefused } from '../../i18n/said';
import { command } from '../../intents';
import { isTraining, useStatus } from '../../store/status';
import { printableText } from '../../../../shared/protocol/orderId';

/** How often the panel asks for the link's state while it is open. */
const LOOK_EVERY_MS = 2_000;

type Errors = Partial<Record<ChainField | 'request', string>>;

/** The link's state in the staff's words. */
export function useChainWords(): (status: ChainStatus) => string {
  const { t, locale } = useWords();
  return (status) => {
    const since = status.since === null ? '' : formatDayClock(status.since, locale);
    const values = { store: status.storeId ?? '', centre: status.centre ?? '', since };
    switch (status.state) {
      case 'none':
        return t('hub:chain.state.none');
      case 'connecting':
        return t('hub:chain.state.connecting', values);
      case 'linked':
        return t('hub:chain.state.linked', values);
      case 'refused':
        return t(`hub:chain.state.refused.${status.refusedBy ?? 'other'}`, values);
      case 'cut':
        return t('hub:chain.state.cut', values);
    }
  };
}

export function ChainPanel({ pin }: { pin: string }) {
  const { t } = useWords();
  const id = useId();
  const [status, setStatus] = useState<ChainStatus | null>(null);
  const [message, setMessage] = useState<Said | null>(null);
  const words = useChainWords();

  useEffect(() => {
    let live = true;
    const look = async () => {
      const reply = await command('chain.status', {});
      if (live && reply.ok) setStatus(reply.value);
    };
    void look();
    const timer = setInterval(() => void look(), LOOK_EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  const state = status ? words(status) : t('hub:chain.reading');
  const bad = status !== null && (status.state === 'refused' || status.state === 'cut' || status.problem !== null);
  return (
    <section className="panel chain-panel" aria-labelledby={`${id}-t`} data-testid="chain-panel">
      <h2 id={`${id}-t`}>{t('hub:chain.title')}</h2>
      <p className={bad ? 'form-error' : status?.state === 'linked' ? 'form-ok' : undefined} role="status" data-testid="chain-state" data-state={status?.state ?? 'reading'}>
        {state}
      </p>
      {status?.detail && (
        <p className="chain-detail" data-testid="chain-detail">
          {t('hub:chain.serverSaid', { detail: status.detail })}
        </p>
      )}
      {status?.problem && <p className="form-error">{status.problem}</p>}
      {status && status.role !== 'hub' && <p data-testid="chain-not-hub">{status.role === 'counter' ? t('hub:chain.notHub') : t('hub:chain.noHub')}</p>}
      {status?.role === 'hub' &&
        (status.state === 'none' ? (
          <LinkForm pin={pin} onLinked={(s) => (setStatus(s), setMessage(saidOk((t) => t('hub:chain.saved'))))} onSay={setMessage} />
        ) : (
          <Linked status={status} pin={pin} onUnlinked={(s) => (setStatus(s), setMessage(saidOk((t) => t('hub:chain.unlinked'))))} onSay={setMessage} />
        ))}
      {message && <SaidLine said={message} look="form" testId="chain-message" />}
    </section>
  );
}

/** Reads a picked file's text; too large or unreadable: said, nothing kept. */
async function fileText(file: File): Promise<string | 'large' | 'unreadable'> {
  if (file.size > CHAIN_FILE_MAX_CHARS) return 'large';
  try {
    return await file.text();
  } catch {
    return 'unreadable';
  }
}

function LinkForm({ pin, onLinked, onSay }: { pin: string; onLinked: (s: ChainStatus) => void; onSay: (said: Said | null) => void }) {
  const { t } = useWords();
  const id = useId();
  const training = useStatus(isTraining);
  const [storeId, setStoreId] = useState('');
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const credsInput = useRef<HTMLInputElement>(null);
  const caInput = useRef<HTMLInputElement>(null);

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    onSay(null);
    const read = async (input: HTMLInputElement | null): Promise<string | null | 'large' | 'unreadable'> => {
      const file = input?.files?.[0];
      return file ? fileText(file) : null;
    };
    const credentials = await read(credsInput.current);
    const ca = await read(caInput.current);
    const fileErrors: Errors = {};
    if (credentials === 'large' || credentials === 'unreadable') fileErrors.credentials = credentials === 'large' ? 'fileLarge' : 'fileUnreadable';
    if (ca === 'large' || ca === 'unreadable') fileErrors.ca = ca === 'large' ? 'fileLarge' : 'fileUnreadable';
    const link: ChainLinkRequest = {
      storeId: storeId.trim(),
      url: url.trim(),
      credentials: typeof credentials === 'string' && !fileErrors.credentials ? credentials : null,
      ca: typeof ca === 'string' && !fileErrors.ca ? ca : null,
    };
    const found = { ...chainFieldErrors(link, training), ...fileErrors };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const reply = await command('chain.link', { pin, link });
    setBusy(false);
    if (reply.ok) {
      // The files' text is dropped from the page: the main process keeps the credentials.
      if (credsInput.current) credsInput.current.value = '';
      if (caInput.current) caInput.current.value = '';
      onLinked(reply.value);
      return;
    }
    const field = reply.problem.values?.field;
    const code = reply.problem.values?.code;
    if (reply.problem.code === 'CHAIN_FIELD' && typeof field === 'string' && typeof code === 'string') setErrors({ [field]: code });
    else onSay(saidRefused(reply.problem));
  };

  const fieldError = (field: ChainField) =>
    errors[field] ? (
      <p className="form-error" id={`${id}-${field}-error`} data-testid={`chain-error-${field}`}>
        {t(`hub:chain.errors.${errors[field]}`)}
      </p>
    ) : null;
  const described = (field: ChainField) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${field}-error` } : {});

  return (
    <form className="settings-form" onSubmit={(e) => void save(e)} data-testid="chain-form" noValidate>
      <p>{t('hub:chain.explain')}</p>
      {training && <p data-testid="chain-training">{t('hub:chain.training')}</p>}
      <div className="field">
        <label htmlFor={`${id}-url`}>{t('hub:chain.url')}</label>
        <input id={`${id}-url`} className="text-input" value={url} placeholder="tls://leaf.chain.example:7422" autoComplete="off" spellCheck={false} onChange={(e) => setUrl(e.target.value)} data-testid="chain-url" {...described('url')} />
        {fieldError('url')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-store`}>{t('hub:chain.storeId')}</label>
        <input id={`${id}-store`} className="text-input narrow" value={storeId} maxLength={64} placeholder="store-0123" autoComplete="off" spellCheck={false} onChange={(e) => setStoreId(e.target.value)} data-testid="chain-store-id" {...described('storeId')} />
        {fieldError('storeId')}
      </div>
      <FilePick id={`${id}-creds`} label={t('hub:chain.credentials')} accept=".creds,text/plain" input={credsInput} testId="chain-creds" invalid={described('credentials')}>
        {fieldError('credentials')}
      </FilePick>
      <FilePick id={`${id}-ca`} label={t('hub:chain.ca')} accept=".pem,.crt,text/plain" input={caInput} testId="chain-ca" invalid={described('ca')}>
        {fieldError('ca')}
      </FilePick>
      {errors.request && <p className="form-error">{t(`hub:chain.errors.${errors.request}`)}</p>}
      <div className="form-foot">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="chain-save">
          {busy ? t('hub:chain.saving') : t('hub:chain.save')}
        </button>
      </div>
    </form>
  );
}

/**
 * A file field whose button and "no file chosen" are in the staff's language (the browser's own
 * file button speaks the browser's): the input is visually hidden but focusable, the label is the button.
 */
function FilePick(props: {
  id: string;
  label: string;
  accept: string;
  input: React.RefObject<HTMLInputElement | null>;
  testId: string;
  invalid: Record<string, unknown>;
  children: React.ReactNode;
}) {
  const { t } = useWords();
  const [name, setName] = useState<string | null>(null);
  return (
    <div className="field" role="group" aria-labelledby={`${props.id}-label`}>
      <span className="field-label" id={`${props.id}-label`}>
        {props.label}
      </span>
      <div className="file-pick">
        <input
          id={props.id}
          ref={props.input}
          type="file"
          className="visually-hidden file-pick-input"
          accept={props.accept}
          aria-labelledby={`${props.id}-label ${props.id}-name`}
          onChange={(e) => setName(e.target.files?.[0]?.name ?? null)}
          data-testid={props.testId}
          {...props.invalid}
        />
        <label htmlFor={props.id} className="button">
          {t('hub:chain.choose')}
        </label>
        <span id={`${props.id}-name`} data-testid={`${props.testId}-name`}>
          {name ?? t('hub:chain.noFile')}
        </span>
      </div>
      {props.children}
    </div>
  );
}

function Linked({ status, pin, onUnlinked, onSay }: { status: ChainStatus; pin: string; onUnlinked: (s: ChainStatus) => void; onSay: (said: Said) => void }) {
  const { t } = useWords();
  const [busy, setBusy] = useState(false);
  const unlink = async () => {
    setBusy(true);
    const reply = await command('chain.unlink', { pin });
    setBusy(false);
    if (reply.ok) onUnlinked(reply.value);
    else onSay(saidRefused(reply.problem));
  };
  return (
    <>
      <dl className="facts" data-testid="chain-facts">
        <dt>{t('hub:chain.storeId')}</dt>
        <dd>{printableText(status.storeId ?? '')}</dd>
        <dt>{t('hub:chain.url')}</dt>
        <dd>{status.centre}</dd>
        <dt>{t('hub:chain.credentials')}</dt>
        <dd>{status.hasCredentials ? t('hub:chain.kept') : t('hub:chain.noneGiven')}</dd>
        <dt>{t('hub:chain.ca')}</dt>
        <dd>{status.hasCa ? t('hub:chain.kept') : t('hub:chain.noneGiven')}</dd>
      </dl>
      <div className="form-actions">
        <button type="button" className="button button-danger-outline" disabled={busy} onClick={() => void unlink()} data-testid="chain-unlink">
          {t('hub:chain.unlink')}
        </button>
      </div>
    </>
  );
}
