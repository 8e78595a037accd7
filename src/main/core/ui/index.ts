export * from './serving';
export * from './firstScreen';
