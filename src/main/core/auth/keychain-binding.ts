/**
 * The one module that loads the OS keychain binding (keytar: Secret Service on Linux, Credential
 * Manager on Windows, Keychain on macOS). Everything else (the credential vault, the store's secret)
 * uses the `KeychainBinding` port below, so moving to another binding is this file and a migration
 * of what is stored (docs/decisions.md, "The keychain binding").
 */

/** What Packdesk asks of a keychain: a password per service and account. */
export interface KeychainBinding {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** Loads the binding only when first needed: importing keytar fails where libsecret is missing. */
export async function loadKeychainBinding(): Promise<KeychainBinding> {
  const mod = (await import('keytar')) as unknown as KeychainBinding & { default?: KeychainBinding };
  return mod.default ?? mod;
}
