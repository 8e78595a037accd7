/**
 * Where each environment's client id and secret live: training's built-in credentials in memory,
 * staging's and production's in the OS keychain, never a file; a shell (or a test) may hand in its
 * own `vaultFor`. One vault per environment for the host's life: a vault may cache what it read.
 */
import type { Environment } from '../../../../shared/ipc';
import { KeytarVault, MemoryVault, type ClientCredentials, type CredentialVault } from '../../auth';
import type { Logger } from '../../log';

/** What the training service accepts unless the shell says otherwise (the sandbox's defaults). */
export const TRAINING_CREDENTIALS: ClientCredentials = { clientId: 'training', clientSecret: 'training-secret' };

export interface VaultsOptions {
  /** The shell's vault per environment; absent, the defaults above. */
  readonly vaultFor?: ((env: Environment) => CredentialVault) | undefined;
  readonly trainingCredentials?: ClientCredentials | undefined;
  /** The keychain vault logs through it (redacted). */
  readonly log: Logger;
}

/** The host's vault lookup: each environment's vault, made on first use and kept. */
export function createVaults(options: VaultsOptions): (env: Environment) => CredentialVault {
  const training = options.trainingCredentials ?? TRAINING_CREDENTIALS;
  const vaultFor =
    options.vaultFor ??
    ((env: Environment): CredentialVault =>
      env === 'training' ? new MemoryVault({ credentials: training }) : new KeytarVault({ environment: env, logger: options.log }));
  const vaults = new Map<Environment, CredentialVault>();
  return (env) => {
    let v = vaults.get(env);
    if (!v) vaults.set(env, (v = vaultFor(env)));
    return v;
  };
}
