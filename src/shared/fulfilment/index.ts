export * from './states';
export * from './apply';
export * from './effect';
