/**
 * Starts the app against the engine: subscribes to its events, loads what it knows, then shows
 * the terminal. A failed start says so in words and offers to try again.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PackdeskApi } from '../../shared/ipc';
import { FullScreenMessage } from './components/FullScreenMessage';
import { start } from './intents';
import { Shell } from './Shell';

type Phase = { name: 'loading' } | { name: 'ready' } | { name: 'failed'; message: string };

export function App({ api }: { api: PackdeskApi }) {
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });

  const boot = useCallback(() => {
    setPhase({ name: 'loading' });
    start(api)
      .then((problem) => setPhase(problem ? { name: 'failed', message: problem } : { name: 'ready' }))
      .catch(() => setPhase({ name: 'failed', message: 'The terminal engine did not answer.' }));
  }, [api]);

  useEffect(boot, [boot]);

  if (phase.name === 'loading')
    return (
      <FullScreenMessage title="Starting Packdesk…" waiting>
        <p>Loading the orders on this terminal.</p>
      </FullScreenMessage>
    );
  if (phase.name === 'failed')
    return (
      <FullScreenMessage title="Packdesk could not start">
        <p>{phase.message}</p>
        <button type="button" className="button button-primary" onClick={boot}>
          Try again
        </button>
      </FullScreenMessage>
    );
  return <Shell />;
}
