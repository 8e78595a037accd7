/**
 * The sandbox order service: a local token server + order service that follows the spec and
 * decisions.md, with fault injection and an admin API. Training mode, tests and benchmarks use it.
 */
export { startSandbox, TOKEN_PATH, UPDATE_PATH } from './server';
export { ADMIN_PREFIX } from './admin';
export { REFUSAL_STATUS } from './answers';
export { noFaults, FaultsPatchSchema } from './faults';
export { seedOrders } from './seed';
export type {
  AppliedEntry,
  FaultControl,
  Faults,
  RequestLogEntry,
  Sandbox,
  SandboxOptions,
  SandboxStats,
} from './types';
