/**
 * The store's secret: made at random when the hub is created, kept in the OS keychain (hub PC and
 * counters alike), in no file. nats.conf holds only its bcrypt hash; the join code carries it.
 */
import { randomBytes } from 'node:crypto';
import { type KeychainBinding, loadKeychainBinding } from '../../auth/keychain-binding';
import { keychainService } from '../../auth/keytar-vault';
import { secrets as processSecrets, type SecretRegistry } from '../../log/redact';

/** The keychain account the store's secret is kept under (beside the order service's credentials). */
export const HUB_SECRET_ACCOUNT = 'hub-secret';

/** Bytes of randomness in a store's secret: 96 bits, far beyond guessing over a LAN, short enough for a join code. */
export const HUB_SECRET_BYTES = 12;

/** A new store secret: 24 lowercase hex digits. */
export function newHubSecret(random: (size: number) => Buffer = randomBytes): string {
  return random(HUB_SECRET_BYTES).toString('hex');
}

/** Where this PC keeps the store's secret. */
export interface HubSecretStore {
  get(): Promise<string | null>;
  set(secret: string): Promise<void>;
  clear(): Promise<void>;
}

export interface KeychainHubSecretsOptions {
  /** training, staging or production: the same keychain entry family as the order service's credentials. */
  readonly environment: string;
  readonly loadBinding?: () => Promise<KeychainBinding>;
  readonly secrets?: SecretRegistry;
}

/** The store's secret in the OS keychain; a keychain that does not work is an error in words, never a file. */
export function keychainHubSecrets(options: KeychainHubSecretsOptions): HubSecretStore {
  const service = keychainService(options.environment);
  const registry = options.secrets ?? processSecrets;
  let binding: Promise<KeychainBinding> | null = null;
  const run = async <T>(doing: string, call: (k: KeychainBinding) => Promise<T>): Promise<T> => {
    try {
      binding ??= (options.loadBinding ?? loadKeychainBinding)();
      return await call(await binding);
    } catch (error) {
      binding = null;
      throw new Error(`The store's secret could not be ${doing} in the system keychain: ${registry.redactText(error instanceof Error ? error.message : String(error)).slice(0, 200)}`);
    }
  };
  return {
    get: async () => {
      const secret = await run('read', (k) => k.getPassword(service, HUB_SECRET_ACCOUNT));
      registry.add(secret);
      return secret;
    },
    set: async (secret) => {
      registry.add(secret);
      await run('saved', (k) => k.setPassword(service, HUB_SECRET_ACCOUNT, secret));
    },
    clear: async () => {
      await run('removed', (k) => k.deletePassword(service, HUB_SECRET_ACCOUNT));
    },
  };
}

/** The store's secret in memory, for tests and `--training` runs that must not touch the keychain. */
export function memoryHubSecrets(initial: string | null = null): HubSecretStore {
  let value = initial;
  return {
    get: async () => value,
    set: async (secret) => {
      value = secret;
    },
    clear: async () => {
      value = null;
    },
  };
}
