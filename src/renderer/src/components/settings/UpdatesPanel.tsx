/** Which version runs, whether a newer one is ready, and installing it now. */
import { useState } from 'react';
import type { UpdateStatus } from '../../../../shared/ipc';
import { formatAge } from '../../format';
import { useNow } from '../../hooks/useNow';
import { useWords } from '../../i18n/useWords';
import { type Said, saidOk, saidRefused } from '../../i18n/said';
import { command } from '../../intents';
import { SupportDetails } from '../SupportDetails';
import { useStatus } from '../../store/status';

const WORDS: Record<UpdateStatus['state'], string> = {
  idle: 'settings:updates.state.idle',
  checking: 'settings:updates.state.checking',
  downloading: 'settings:updates.state.downloading',
  ready: 'settings:updates.state.ready',
  installing: 'settings:updates.state.installing',
  error: 'settings:updates.state.error',
  disabled: 'settings:updates.state.disabled',
};

export function UpdatesPanel({ pin }: { pin: string }) {
  const { t, locale } = useWords();
  const updates = useStatus((s) => s.updates);
  const waiting = useStatus((s) => s.sync?.waiting ?? 0);
  const now = useNow(10_000);
  const [result, setResult] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);

  const install = async () => {
    setBusy(true);
    const reply = await command('updates.installNow', { pin });
    setBusy(false);
    setResult(reply.ok ? saidOk((t) => t('settings:updates.restarting')) : saidRefused(reply.problem));
  };

  return (
    <section className="panel" aria-label={t('settings:updates.title')}>
      <h2>{t('settings:updates.title')}</h2>
      {updates ? (
        <>
          <p>
            {t('settings:updates.version')} <strong>{updates.currentVersion}</strong> · {t(WORDS[updates.state])}
            {updates.availableVersion && <> · {t('settings:updates.newVersion', { version: updates.availableVersion })}</>}
          </p>
          {updates.message && (
            <SupportDetails>
              <p>{updates.message}</p>
            </SupportDetails>
          )}
          {updates.lastCheckAt !== null && <p className="hint">{t('settings:updates.lastChecked', { age: formatAge(updates.lastCheckAt, now, t) })}</p>}
          {updates.state === 'ready' && (
            <>
              {waiting > 0 && <p className="hint">{t('settings:updates.tapsKept', { count: waiting })}</p>}
              <button type="button" className="button button-primary" onClick={() => void install()} disabled={busy}>
                {t('settings:updates.installNow')}
              </button>
            </>
          )}
          {result && <p role="status">{result.words(t, locale)}</p>}
        </>
      ) : (
        <p>{t('settings:updates.unknown')}</p>
      )}
    </section>
  );
}
