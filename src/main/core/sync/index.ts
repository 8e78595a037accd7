/** The sync engine: drains the outbox to the order service when it can be reached. */
export { createSync, type Sync, type SyncOptions, type SyncListener, type DrainOptions, type DrainResult } from './sync-engine';
export { createConnectivity, type Connectivity, type OnlineSignal, type ConnectivityTracker } from './connectivity';
export { createReachabilitySignal, type ReachabilitySignal } from './reachability';
