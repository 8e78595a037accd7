/**
 * Which order service this terminal talks to, and its credentials. Write-only: the secret goes
 * in and only "saved" or "rejected" comes back; the fields are never filled from storage.
 */
import { useId, useState, type FormEvent } from 'react';
import type { Environment } from '../../../../shared/ipc';
import { useWords } from '../../i18n/useWords';
import { type Said, saidNotOk, saidOk, saidRefused } from '../../i18n/said';
import { ENVIRONMENT_NAME, type Wording } from '../../i18n/words';
import { command, reload } from '../../intents';
import { SupportDetails } from '../SupportDetails';
import { useStatus } from '../../store/status';

const ENVIRONMENTS: readonly { value: Environment; label: string }[] = [
  { value: 'training', label: 'settings:connection.env.training' },
  { value: 'staging', label: 'settings:connection.env.staging' },
  { value: 'production', label: 'settings:connection.env.production' },
];

/**
 * What the manager reads after saving: plain words and what to do (worded when shown); the
 * server's own words go under details, as it sent them.
 */
interface Outcome extends Said {
  readonly details: string | null;
}

export function ConnectionForm({ pin }: { pin: string }) {
  const { t, locale } = useWords();
  const settings = useStatus((s) => s.settings);
  const credentials = useStatus((s) => s.sync?.credentials ?? null);
  const id = useId();
  const [environment, setEnvironment] = useState<Environment>(settings?.environment ?? 'training');
  const [authUrl, setAuthUrl] = useState(settings?.authUrl ?? '');
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [result, setResult] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const reply = await command('credentials.save', {
      pin,
      environment,
      ...(authUrl.trim() ? { authUrl: authUrl.trim() } : {}),
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      ...(clientId.trim() ? { clientId: clientId.trim() } : {}),
      ...(clientSecret ? { clientSecret } : {}),
    });
    // Saved connection settings restart the engine behind the bridge: read everything again.
    if (reply.ok && reply.value.result === 'saved') await reload();
    setBusy(false);
    // Whatever happened, the secret leaves this screen's memory.
    setClientSecret('');
    if (!reply.ok) setResult({ ...saidRefused(reply.problem), details: reply.problem.code ? reply.problem.message : null });
    else if (reply.value.result === 'rejected') setResult({ ...saidNotOk((t) => t('settings:connection.refused')), details: reply.value.message });
    else {
      const { code, message } = reply.value;
      const env = reply.value.values?.environment;
      const words: Wording =
        code === 'TRAINING'
          ? (t) => t('settings:connection.training')
          : code === 'SAVED' && (env === 'staging' || env === 'production')
            ? (t) => t('settings:connection.saved', { environment: t(ENVIRONMENT_NAME[env]) })
            : () => message;
      setResult({ ...saidOk(words), details: code === 'SAVED' ? message : null });
    }
  };

  return (
    <form className="panel settings-form" onSubmit={(e) => void save(e)} aria-labelledby={`${id}-t`} data-testid="connection-form">
      <h2 id={`${id}-t`}>{t('settings:connection.title')}</h2>
      <p className="hint">
        {t('settings:connection.now')} <strong>{settings ? t(ENVIRONMENT_NAME[settings.environment]) : '—'}</strong>
        {credentials && (
          <>
            {' '}
            · {t('settings:connection.credentials')}{' '}
            <strong>
              {credentials === 'ok'
                ? t('settings:connection.credentialsOk')
                : credentials === 'missing'
                  ? t('settings:connection.credentialsMissing')
                  : t('settings:connection.credentialsRejected')}
            </strong>
          </>
        )}
      </p>
      <div className="field">
        <label htmlFor={`${id}-env`}>{t('settings:connection.environment')}</label>
        <select id={`${id}-env`} className="text-input" value={environment} onChange={(e) => setEnvironment(e.target.value as Environment)}>
          {ENVIRONMENTS.map((env) => (
            <option key={env.value} value={env.value}>
              {t(env.label)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-auth`}>{t('settings:connection.authUrl')}</label>
        <input id={`${id}-auth`} className="text-input" type="url" value={authUrl} onChange={(e) => setAuthUrl(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-base`}>{t('settings:connection.baseUrl')}</label>
        <input id={`${id}-base`} className="text-input" type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-cid`}>{t('settings:connection.clientId')}</label>
        <input id={`${id}-cid`} className="text-input" value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-secret`}>{t('settings:connection.clientSecret')}</label>
        <input
          id={`${id}-secret`}
          className="text-input"
          type="password"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
          autoComplete="new-password"
          spellCheck={false}
        />
      </div>
      <div className="form-foot">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="credentials-save">
          {t('settings:connection.save')}
        </button>
        {result && (
          <span className={result.ok ? 'inline-ok' : 'inline-error'} role={result.ok ? 'status' : 'alert'} data-testid="credentials-result">
            {result.ok ? `✓ ${t('settings:connection.savedMark')} ` : `✖ ${t('settings:connection.rejectedMark')} `}
            {result.words(t, locale)}
            {result.details && (
              <SupportDetails testId="credentials-details">
                <p>{result.details}</p>
              </SupportDetails>
            )}
          </span>
        )}
      </div>
    </form>
  );
}
