/** The packdesk CLI: argument parsing, configuration, doctor, and runCli. */
export { runCli, type CliIo } from './main';
export { parseCommand, splitArgs, type Command } from './args';
export { resolveConfig, vaultFor, type CliConfig } from './config';
export { runDoctor, formatChecks, type Check } from './doctor';
export { EXIT, USAGE } from './usage';
