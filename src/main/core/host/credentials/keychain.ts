/**
 * Whether the keychain a manager will need works here, checked in the background (a locked or
 * missing Secret Service can take seconds to answer) so `app.info` stays quick. While training,
 * production's keychain is checked: better to learn it is missing before the switch than during it.
 */
import type { Environment } from '../../../../shared/ipc';
import type { CredentialVault, VaultHealth } from '../../auth';
import { awaitWithin, systemTimers } from '../../time';

export const KEYCHAIN_CHECKING: VaultHealth = { ok: false, message: 'Checking the keychain…', checking: true };

export interface KeychainWatch {
  /** Starts a fresh check for the environment in use. */
  refresh(environment: Environment): void;
  /** The last answer (KEYCHAIN_CHECKING until the first one). */
  current(): VaultHealth;
  /** Waits for the check in progress, at most `ms`. */
  settled(ms: number): Promise<void>;
}

/** Creates the watch over the host's vaults. */
export function createKeychainWatch(vault: (env: Environment) => CredentialVault): KeychainWatch {
  let health: VaultHealth = KEYCHAIN_CHECKING;
  let pending: Promise<VaultHealth> | null = null;
  return {
    refresh(environment) {
      const check: Promise<VaultHealth> = vault(environment === 'training' ? 'production' : environment)
        .health()
        .catch((err: unknown) => ({ ok: false, message: err instanceof Error ? err.message : String(err) }))
        .then((h) => {
          // Only the newest check counts (an environment switch starts another).
          if (pending === check) health = h;
          return h;
        });
      pending = check;
    },
    current: () => health,
    async settled(ms) {
      if (!pending) return;
      await awaitWithin(pending, ms, null, systemTimers, { keepAlive: true });
    },
  };
}
