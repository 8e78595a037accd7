/**
 * The order id pattern a new terminal starts with, in a module of its own without zod: the
 * renderer needs only this value from the contract, and importing it from `ipc.ts` built every
 * schema of the contract (zod and all) into the page's bundle and ran them at its start.
 */

/**
 * Order ids the terminal recognises out of the box: the platform's (`OD` and 18+ digits, e.g.
 * OD2401121901140533863584) and the training sandbox's (`ORD-` and digits).
 */
export const DEFAULT_ORDER_ID_PATTERN = '^(OD\\d{10,32}|ORD-\\d{4,12})$';
