export * from './serving';
