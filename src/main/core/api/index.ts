/** The order service client and what the sync engine needs to drive it. */
export * from './outcome';
export * from './token-source';
export * from './order-service-client';
export * from './retry-after';
export * from './http';
export * from './read-outcome';
export * from './status-check';
