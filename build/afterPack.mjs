/**
 * electron-builder afterPack hook: flips Packdesk's Electron fuses on the packed binary. It runs
 * after the app is packed and before signing, which is the order Electron requires. A failure
 * fails the packaging: an installer without its fuses must not ship.
 */
import process from 'node:process';
import { flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { electronBinaryPath, packdeskFuses } from './fuses.mjs';

/** Flips the fuses and checks the result by reading the wire back. */
export default async function afterPack(context) {
  const binary = electronBinaryPath(context);
  const wanted = packdeskFuses();
  await flipFuses(binary, wanted);
  const wire = await getCurrentFuseWire(binary);
  for (const [key, value] of Object.entries(wanted)) {
    if (!/^\d+$/.test(key)) continue;
    // The wire stores '1' (enabled) or '0' (disabled) as character codes.
    const expected = value ? 49 : 48;
    if (wire[key] !== expected) throw new Error(`Packdesk fuses: fuse ${key} is ${wire[key]} after flipping, expected ${expected} (${binary})`);
  }
  process.stdout.write(`  • Packdesk fuses flipped and verified on ${binary}\n`);
}
