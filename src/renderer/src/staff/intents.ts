/**
 * A packer starts work by scanning their badge or typing their PIN; one scan switches packers.
 * The engine keeps who is signed in (it stamps every tap); the screen only shows it.
 */
import type { PackdeskApi } from '../../../shared/ipc';
import type { Problem } from '../../../shared/result';
import { command, refuse } from '../intents/bridge';
import { playConfirm } from '../feedback/sound';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { usePacker } from './store';

/** Listens for the engine's word on who is packing. */
export function watchPacker(api: PackdeskApi): void {
  api.on('staff.changed', (status) => usePacker.getState().set(status));
}

/** A badge scanned anywhere: its packer is packing now. */
export async function signInByBadge(badge: string): Promise<boolean> {
  const reply = await command('staff.signIn', { badge: badge.trim() });
  return signedIn(reply);
}

/** A personal PIN typed: its packer is packing now. Returns the refusal (the dialog words it), or null. */
export async function signInByPin(packerPin: string): Promise<Problem | null> {
  const reply = await command('staff.signIn', { packerPin });
  if (!reply.ok) return reply.problem;
  signedIn(reply);
  return null;
}

/** Nobody is packing at this counter now: taps are the counter's. */
export async function signOut(): Promise<void> {
  const reply = await command('staff.signOut', {});
  if (reply.ok) {
    usePacker.getState().set(reply.value);
    useUi.getState().say('info', (t) => t('staff:signedOut'));
  }
}

function signedIn(reply: Awaited<ReturnType<typeof command<'staff.signIn'>>>): boolean {
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  usePacker.getState().set(reply.value);
  if (useStatus.getState().settings?.sounds ?? true) playConfirm();
  const name = reply.value.packer?.name;
  if (name) useUi.getState().say('success', (t) => t('staff:signedIn', { name }));
  return true;
}
