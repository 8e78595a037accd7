/**
 * The one IPC contract between the renderer and the main process (Electron) or the browser
 * harness (WebSocket). Each command has a zod schema for its payload and its result; each event
 * a schema for its body. The main side validates every payload; the preload and the harness
 * bridge expose exactly `createApi(transport)`'s object as `window.packdesk`.
 *
 * Secrets only ever travel renderer -> main (credentials.save); nothing secret comes back.
 *
 * One file per domain (orders, outbox, status, settings, print, updates, shift, staff, hub,
 * chain), each with its view types and its commands; contract.ts puts the commands together into
 * the one typed table both ends check. Import from here.
 */
export { actionInputSchema, nextStepSchema, ProblemSchema, type Words, wordsSchema } from './shapes';
export * from './outbox';
export * from './orders';
export * from './status';
export * from './settings';
export * from './print';
export * from './updates';
export * from './shift';
export * from './staff';
export * from './hub';
export * from './chain';
export * from './contract';
