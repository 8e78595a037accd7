export * from './port';
export * from './page-size';
