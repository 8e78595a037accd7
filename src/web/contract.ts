/**
 * What the bridge checks arriving frames with: the IPC contract's reply and event parsing and the
 * harness's frame schema. The bridge loads this module once the page's first commands have left
 * (or when the first frame arrives), not when it starts: building zod and every schema of the
 * contract takes tens of milliseconds, and done first it held back those commands by as much.
 */
export { isEventName, parseEvent, parseReply } from '../shared/ipc';
export { ServerFrameSchema } from './wire';
