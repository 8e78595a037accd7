/** Update decisions that need no Electron: install policy, rollout bucket, version order. */
export * from './policy';
export * from './rollout';
export * from './version';
