import type { PackContextLike } from './fuses.mjs';

/** electron-builder afterPack hook: flips and verifies Packdesk's Electron fuses. */
export default function afterPack(context: PackContextLike): Promise<void>;
