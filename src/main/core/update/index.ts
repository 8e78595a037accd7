/** Update decisions that need no Electron: install policy, rollout bucket, version order, feed check and reads, pending-install note, saved status, the words said, the status kept and the feed read. */
export * from './policy';
export * from './rollout';
export * from './version';
export * from './feed';
export * from './pending-install';
export * from './status-file';
export * from './feed-reads';
export * from './said';
export * from './support';
export * from './status-words';
export * from './status-keeper';
export * from './feed-check';
