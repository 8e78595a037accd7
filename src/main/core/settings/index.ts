export * from './store';
export * from './addresses';
export * from './files';
