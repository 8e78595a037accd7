/** Update decisions that need no Electron: install policy, rollout bucket, version order, feed check and reads, pending-install note, saved status, the words said. */
export * from './policy';
export * from './rollout';
export * from './version';
export * from './feed';
export * from './pending-install';
export * from './status-file';
export * from './feed-reads';
export * from './said';
export * from './support';
