/**
 * Where the harness serves its bridge and its socket. A module of its own without zod, so the
 * bridge can name them without building the contract's schemas at its start.
 */

/** The path the page connects to; the per-run token travels as `?t=`. */
export const IPC_PATH = '/ipc';
/** The bridge script the harness serves and inserts into index.html. */
export const BRIDGE_PATH = '/packdesk-bridge.js';
/** The contract's schemas (zod and every command's and event's), a module the bridge imports as it starts. */
export const CONTRACT_PATH = '/packdesk-contract.js';
