/**
 * The app against the engine: shows the terminal once the first start (subscribe to the events,
 * load what the engine knows) has brought the orders. A failed start says so in words and offers
 * to try again.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PackdeskApi } from '../../shared/ipc';
import { FullScreenMessage } from './components/FullScreenMessage';
import { useWords } from './i18n/useWords';
import { problemWording, type Wording } from './i18n/words';
import type { Problem } from '../../shared/result';
import { start, type Boot } from './intents';
import { Shell } from './Shell';

/** A failed start keeps how to word why, so the screen says it in the language shown. */
type Phase = { name: 'loading' } | { name: 'ready' } | { name: 'failed'; why: Wording };


/** The first start, begun before the first render (main.tsx), and how it ended if it already has. */
export interface FirstStart {
  readonly boot: Boot;
  /** The first start's answer when it came before the words were ready; undefined while it runs. */
  readonly settled?: Problem | null;
}

const phaseOf = (problem: Problem | null): Phase => (problem ? { name: 'failed', why: problemWording(problem) } : { name: 'ready' });

/** The terminal once started: a start screen while the engine's first answers come, then the shell. */
export function App({ api, first }: { api: PackdeskApi; first: FirstStart }) {
  const { t, locale } = useWords();
  // Orders that came with the words show at once: no "starting" screen in between.
  const [phase, setPhase] = useState<Phase>(first.settled === undefined ? { name: 'loading' } : phaseOf(first.settled));

  // No words here, only how to word them: with the hook's `t` in it, a new language would start
  // the app over (that would drop every screen's state).
  const follow = useCallback((ready: Promise<Problem | null>) => {
    ready.then((problem) => setPhase(phaseOf(problem))).catch(() => setPhase({ name: 'failed', why: (t) => t('common:app.engineSilent') }));
  }, []);

  // Always followed, even when it had settled at the first render: it may settle between that
  // render and this effect, and a check of `first.settled` here would then wait for ever.
  useEffect(() => {
    follow(first.boot.ready);
  }, [first, follow]);

  const tryAgain = useCallback(() => {
    setPhase({ name: 'loading' });
    follow(start(api).ready);
  }, [api, follow]);

  if (phase.name === 'loading')
    return (
      <FullScreenMessage title={t('common:app.starting')} waiting>
        <p>{t('common:app.loading')}</p>
      </FullScreenMessage>
    );
  if (phase.name === 'failed')
    return (
      <FullScreenMessage title={t('common:app.couldNotStart')}>
        <p>{phase.why(t, locale)}</p>
        <button type="button" className="button button-primary" onClick={tryAgain}>
          {t('common:app.tryAgain')}
        </button>
      </FullScreenMessage>
    );
  return <Shell />;
}
