/**
 * A store of several training counters on one PC (`npm start -- --counters N`): one training
 * sandbox, a harness per counter with its own data folder, the first made the store hub (on
 * 127.0.0.1) and the others joined to it by its join code, as a manager would from Settings ->
 * Counters. A manager sees claims, alerts and taps move between counters before buying a second PC.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { startWebHarness, type WebHarness, type WebHostOptions } from './index';

export interface TrainingStoreOptions {
  /** Two to eight counters. */
  readonly counters: number;
  /** Each counter's folder is `<dataDir>/counter-<n>`. */
  readonly dataDir: string;
  readonly sandboxOptions?: SandboxOptions;
  /** Host options for every counter (training is forced). */
  readonly host?: Omit<WebHostOptions, 'sandboxOptions' | 'sharedSandbox'>;
  readonly rendererDir?: string;
}

export interface TrainingStore {
  readonly sandbox: Sandbox;
  /** Counter 1 (the hub) first. */
  readonly counters: readonly WebHarness[];
  /** The join code the others joined with. */
  readonly joinCode: string;
  close(): Promise<void>;
}

/** Starts the store: the sandbox, the hub counter, then each other counter joined to it. */
export async function startTrainingStore(options: TrainingStoreOptions): Promise<TrainingStore> {
  if (!Number.isInteger(options.counters) || options.counters < 2 || options.counters > 8) throw new RangeError('A training store has 2 to 8 counters.');
  const sandbox = await startSandbox(options.sandboxOptions);
  const counters: WebHarness[] = [];
  const close = async (): Promise<void> => {
    // The other counters first, the hub last: each hands its work over as it leaves.
    for (const c of [...counters].reverse()) await c.close().catch(() => undefined);
    await sandbox.close();
  };
  try {
    const open = async (n: number): Promise<WebHarness> => {
      const dataDir = join(options.dataDir, `counter-${n}`);
      mkdirSync(dataDir, { recursive: true });
      const harness = await startWebHarness({
        dataDir,
        ...(options.rendererDir ? { rendererDir: options.rendererDir } : {}),
        host: { ...options.host, settingsOverride: { ...options.host?.settingsOverride, environment: 'training' }, sharedSandbox: sandbox },
      });
      counters.push(harness);
      return harness;
    };
    const hub = await open(1);
    const made = await hub.host.hub.create('Counter 1');
    if (!made.ok) throw new Error(`The training hub could not be made: ${made.problem.message}`);
    for (let n = 2; n <= options.counters; n++) {
      const counter = await open(n);
      // The hub PC's server has only just started: on a busy PC its first answer can miss the join's
      // 5 s; a "cannot be reached" is asked again twice, as a person would press Join again.
      let joined = await counter.host.hub.join(made.value.code, `Counter ${n}`);
      for (let again = 0; again < 2 && !joined.ok && joined.problem.kind === 'transient'; again++) {
        await new Promise((r) => setTimeout(r, 1_000));
        joined = await counter.host.hub.join(made.value.code, `Counter ${n}`);
      }
      if (!joined.ok) throw new Error(`Counter ${n} could not join the training hub: ${joined.problem.message}`);
    }
    return { sandbox, counters, joinCode: made.value.code, close };
  } catch (error) {
    await close();
    throw error;
  }
}
