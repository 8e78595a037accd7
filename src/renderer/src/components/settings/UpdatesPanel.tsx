/** Which version runs, whether a newer one is ready, and installing it now. */
import { useState } from 'react';
import type { UpdateStatus } from '../../../../shared/ipc';
import { formatAge } from '../../format/time';
import { useNow } from '../../hooks/useNow';
import { command } from '../../intents';
import { useStatus } from '../../store/status';

const WORDS: Record<UpdateStatus['state'], string> = {
  idle: 'Up to date',
  checking: 'Checking for updates…',
  downloading: 'Downloading an update…',
  ready: 'An update is ready to install',
  installing: 'Installing the update…',
  error: 'Updating failed',
  disabled: 'Updates are switched off on this terminal',
};

export function UpdatesPanel({ pin }: { pin: string }) {
  const updates = useStatus((s) => s.updates);
  const waiting = useStatus((s) => s.sync?.waiting ?? 0);
  const now = useNow(10_000);
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const install = async () => {
    setBusy(true);
    const reply = await command('updates.installNow', { pin });
    setBusy(false);
    setResult(reply.ok ? 'Packdesk restarts to finish the update.' : reply.problem.message);
  };

  return (
    <section className="panel" aria-label="Updates">
      <h2>Updates</h2>
      {updates ? (
        <>
          <p>
            Version <strong>{updates.currentVersion}</strong> · {WORDS[updates.state]}
            {updates.availableVersion && <> · new version {updates.availableVersion}</>}
          </p>
          {updates.message && <p className="hint">{updates.message}</p>}
          {updates.lastCheckAt !== null && <p className="hint">Last checked {formatAge(updates.lastCheckAt, now)}.</p>}
          {updates.state === 'ready' && (
            <>
              {waiting > 0 && <p className="hint">{waiting} taps are still waiting; they are kept and sent after the restart.</p>}
              <button type="button" className="button button-primary" onClick={() => void install()} disabled={busy}>
                Install update now
              </button>
            </>
          )}
          {result && <p role="status">{result}</p>}
        </>
      ) : (
        <p>Update status not known yet.</p>
      )}
    </section>
  );
}
