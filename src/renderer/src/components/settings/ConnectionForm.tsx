/**
 * Which order service this terminal talks to, and its credentials. Write-only: the secret goes
 * in and only "saved" or "rejected" comes back; the fields are never filled from storage.
 */
import { useId, useState, type FormEvent } from 'react';
import type { Environment } from '../../../../shared/ipc';
import { command, reload } from '../../intents';
import { useStatus } from '../../store/status';

const ENVIRONMENTS: readonly { value: Environment; label: string }[] = [
  { value: 'training', label: 'Training (practice orders, nothing real)' },
  { value: 'staging', label: 'Staging (testing with the marketplace)' },
  { value: 'production', label: 'Production (real customers)' },
];

export function ConnectionForm({ pin }: { pin: string }) {
  const settings = useStatus((s) => s.settings);
  const credentials = useStatus((s) => s.sync?.credentials ?? null);
  const id = useId();
  const [environment, setEnvironment] = useState<Environment>(settings?.environment ?? 'training');
  const [authUrl, setAuthUrl] = useState(settings?.authUrl ?? '');
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
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
    if (!reply.ok) setResult({ ok: false, text: reply.problem.message });
    else setResult({ ok: reply.value.result === 'saved', text: reply.value.message });
  };

  return (
    <form className="panel settings-form" onSubmit={(e) => void save(e)} aria-labelledby={`${id}-t`} data-testid="connection-form">
      <h2 id={`${id}-t`}>Order service connection</h2>
      <p className="hint">
        Now: <strong>{settings?.environment ?? '—'}</strong>
        {credentials && (
          <>
            {' '}
            · credentials <strong>{credentials === 'ok' ? 'working' : credentials === 'missing' ? 'not entered' : 'rejected'}</strong>
          </>
        )}
      </p>
      <div className="field">
        <label htmlFor={`${id}-env`}>Environment</label>
        <select id={`${id}-env`} className="text-input" value={environment} onChange={(e) => setEnvironment(e.target.value as Environment)}>
          {ENVIRONMENTS.map((env) => (
            <option key={env.value} value={env.value}>
              {env.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-auth`}>Token server address</label>
        <input id={`${id}-auth`} className="text-input" type="url" value={authUrl} onChange={(e) => setAuthUrl(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-base`}>Order service address</label>
        <input id={`${id}-base`} className="text-input" type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-cid`}>Client id (from the marketplace's e-mail; leave empty to keep the saved one)</label>
        <input id={`${id}-cid`} className="text-input" value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-secret`}>Client secret (never shown again once saved)</label>
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
          Save connection
        </button>
        {result && (
          <span className={result.ok ? 'inline-ok' : 'inline-error'} role={result.ok ? 'status' : 'alert'} data-testid="credentials-result">
            {result.ok ? '✓ Saved: ' : '✖ Rejected: '}
            {result.text}
          </span>
        )}
      </div>
    </form>
  );
}
