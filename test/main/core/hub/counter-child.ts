/**
 * A counter in a process of its own, for the SIGKILL test of the intake lease: a real engine on a
 * data folder, joined to the hub at HUB_URL, polling the sandbox at SANDBOX_URL while it holds the
 * lease. Prints "holding" once it holds the lease; the parent kills it with SIGKILL.
 */
import { MemoryVault } from '../../../../src/main/core/auth';
import { openEngineWithService } from '../../../../src/main/core/engine';
import { TRAINING } from '../../../support/credentials';
import { joinHub } from '../../../support/hub-store';

const env = process.env;

async function main(): Promise<void> {
  const service = openEngineWithService({
    dataDir: env.DATA_DIR ?? '',
    authUrl: env.SANDBOX_URL ?? '',
    baseUrl: env.SANDBOX_URL ?? '',
    vault: new MemoryVault({ credentials: TRAINING }),
    terminalId: env.COUNTER_ID ?? 'child',
    proactiveRefresh: false,
    serviceProviderId: () => env.PROVIDER ?? null,
    intakeIntervalMs: () => Number(env.INTERVAL_MS ?? 400),
    intakeMinIntervalMs: 50,
  });
  const counter = await joinHub(env.HUB_URL ?? '', env.COUNTER_ID ?? 'child', service);
  counter.lease.on((state) => {
    if (state.holding) process.stdout.write('holding\n');
  });
  if (counter.lease.holding()) process.stdout.write('holding\n');
  // Runs until killed.
  setInterval(() => undefined, 60_000);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
