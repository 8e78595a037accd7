/** Credentials and tokens: the vaults that keep them and the token manager that uses them. */
export * from './vault';
export * from './stored-tokens';
export * from './memory-vault';
export * from './env-vault';
export * from './keytar-vault';
export * from './keychain-binding';
export * from './expiry';
export * from './token-endpoint';
export * from './token-manager';
