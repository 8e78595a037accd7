/**
 * Starts the app against the engine: subscribes to its events, loads what it knows, then shows
 * the terminal. A failed start says so in words and offers to try again.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PackdeskApi } from '../../shared/ipc';
import { FullScreenMessage } from './components/FullScreenMessage';
import { i18next } from './i18n';
import { useWords } from './i18n/useWords';
import { problemWords } from './i18n/words';
import { start } from './intents';
import { Shell } from './Shell';

type Phase = { name: 'loading' } | { name: 'ready' } | { name: 'failed'; message: string };


export function App({ api }: { api: PackdeskApi }) {
  const { t } = useWords();
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });

  // Words from i18next itself, not the hook's `t`: a new language must not start the app over
  // (that would drop every screen's state).
  const boot = useCallback(() => {
    setPhase({ name: 'loading' });
    start(api)
      .then((problem) => setPhase(problem ? { name: 'failed', message: problemWords(i18next.t, problem) } : { name: 'ready' }))
      .catch(() => setPhase({ name: 'failed', message: i18next.t('common:app.engineSilent') }));
  }, [api]);

  useEffect(boot, [boot]);

  if (phase.name === 'loading')
    return (
      <FullScreenMessage title={t('common:app.starting')} waiting>
        <p>{t('common:app.loading')}</p>
      </FullScreenMessage>
    );
  if (phase.name === 'failed')
    return (
      <FullScreenMessage title={t('common:app.couldNotStart')}>
        <p>{phase.message}</p>
        <button type="button" className="button button-primary" onClick={boot}>
          {t('common:app.tryAgain')}
        </button>
      </FullScreenMessage>
    );
  return <Shell />;
}
