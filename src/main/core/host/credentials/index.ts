/**
 * The host's credentials: which vault holds each environment's client id and secret, whether the
 * keychain works, checking candidate credentials with a token server, and saving them (switching
 * the terminal to that environment).
 */
export { checkCredentials, type CredentialCheck, type CredentialCheckOptions } from './check';
export { createKeychainWatch, KEYCHAIN_CHECKING, type KeychainWatch } from './keychain';
export { saveCredentials, type CredentialsAnswer, type CredentialsRequest, type SaveCredentialsDeps } from './save';
export { createVaults, TRAINING_CREDENTIALS, type VaultsOptions } from './vaults';
