/**
 * What the bridge checks arriving frames with: the IPC contract's reply and event parsing and the
 * harness's frame schema. The bridge loads this module when the first frame arrives, not when it
 * starts: building zod and every schema of the contract takes tens of milliseconds, and done
 * first it held back the page's first commands by as much. By the first answer the commands are
 * on their way and the host is working on them.
 */
export { isEventName, parseEvent, parseReply } from '../shared/ipc';
export { ServerFrameSchema } from './wire';
