export * from './redact';
export * from './logger';
