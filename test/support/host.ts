/** A host in a temporary data folder, with in-memory vaults, for host tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { MemoryVault } from '../../src/main/core/auth';
import { TRAINING } from './credentials';
import { firstIntakePass } from './intake';
import type { CredentialVault } from '../../src/main/core/auth/vault';
import { createAppHost, type AppHost, type HostOptions } from '../../src/main/core/host';
import type { CommandName, CommandResult, Environment } from '../../src/shared/ipc';

export interface TestHost {
  host: AppHost<Sandbox>;
  dataDir: string;
  vaults: Map<Environment, CredentialVault>;
  /** Runs a command and returns its value, failing the test on a problem. */
  call<C extends CommandName>(command: C, payload: unknown): Promise<CommandResult<C>>;
  close(): Promise<void>;
}

/** Starts a host (training mode unless the options say otherwise) in a fresh temp folder; in training, once its seeded orders are in. */
export async function startTestHost(
  { sandboxOptions, ...options }: Partial<HostOptions<Sandbox>> & { sandboxOptions?: Omit<SandboxOptions, 'log'> } = {},
  dataDir?: string,
): Promise<TestHost> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'packdesk-host-'));
  const vaults = new Map<Environment, CredentialVault>();
  const host = await createAppHost<Sandbox>({
    shell: 'web',
    startTraining: (log) => startSandbox({ ...sandboxOptions, log }),
    dataDir: dir,
    version: '0.1.0-test',
    vaultFor: (env) => {
      const v = env === 'training' ? new MemoryVault({ credentials: TRAINING }) : new MemoryVault();
      vaults.set(env, v);
      return v;
    },
    engineOptions: { pollMs: 200, backoff: { baseMs: 50, capMs: 500 } },
    ...options,
  });
  await host.start();
  // Training's seeded orders come in after the engine starts: tests begin with all of them in.
  if (host.sandbox) await firstIntakePass(host);
  return {
    host,
    dataDir: dir,
    vaults,
    async call(command, payload) {
      const reply = await host.handle(command, payload);
      if (!reply.ok) throw new Error(`${command} failed: ${reply.problem.message}`);
      return reply.value as never;
    },
    async close() {
      await host.stop();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
