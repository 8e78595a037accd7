/** The two command-line tools as their entry points name themselves to the exit guard (src/cli/packdesk.ts, src/fleet/cli.ts). */
import type { Program } from '../../src/main/core/entry/exit-guard';

export const PACKDESK: Program = { name: 'packdesk', verboseFlag: '--verbose' };
export const FLEET: Program = { name: 'fleet' };
