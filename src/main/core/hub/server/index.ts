/** The store hub's server: nats-server found, its files made, supervised as a child process. See docs/store-hub.md. */
export { compareVersions, findNatsServer, isLoopbackHost, parseNatsVersion, readNatsVersion, SAFE_NATS_VERSION, versionRefusal } from './program';
export type { ProgramFound, ProgramSearch } from './program';
export { certificateFingerprint, configuredListen, configuredMonitorPort, configuredPasswordHash, createHubFiles, hashSecret, HUB_USER, hubFiles, makeCertificate, natsConfig, writeHubConfig } from './hub-files';
export type { CreateHubFilesOptions, HubFiles } from './hub-files';
export { HUB_SECRET_ACCOUNT, HUB_SECRET_BYTES, keychainHubSecrets, memoryHubSecrets, newHubSecret } from './secret';
export type { HubSecretStore, KeychainHubSecretsOptions } from './secret';
export { clearOrphan, processAlive, systemCommandLine } from './orphan';
export type { CommandLineReader, OrphanOutcome } from './orphan';
export { HubSupervisor } from './supervisor';
export type { ServerHealth, SupervisorOptions } from './supervisor';
export { prepareHubServer } from './open';
export type { PreparedHubServer, PrepareHubServerOptions } from './open';
