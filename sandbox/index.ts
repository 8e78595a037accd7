/**
 * The sandbox order service: a local token server + order service that follows the spec and
 * decisions.md, with fault injection and an admin API. Training mode, tests and benchmarks use it.
 */
import { STORE } from './catalogue';

export { startSandbox, TOKEN_PATH, UPDATE_PATH } from './server';
export { ADMIN_PREFIX } from './admin';
export { REFUSAL_STATUS } from './answers';
export { noFaults, FaultsPatchSchema } from './faults';
export { seedOrders } from './seed';
/** The training store's service provider id: intake polls `changes` for it in training mode. */
export const TRAINING_SERVICE_PROVIDER_ID = STORE.serviceProviderId;
export type {
  AppliedEntry,
  FaultControl,
  Faults,
  RequestLogEntry,
  Sandbox,
  SandboxOptions,
  SandboxStats,
} from './types';
