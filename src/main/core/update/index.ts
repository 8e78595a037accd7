/** Update decisions that need no Electron: install policy, rollout bucket, version order, feed check, pending-install note, saved status. */
export * from './policy';
export * from './rollout';
export * from './version';
export * from './feed';
export * from './pending-install';
export * from './status-file';
