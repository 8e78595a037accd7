export * from './states';
export * from './apply';
