export * from './redact';
export * from './logger';
export * from './fileSink';
