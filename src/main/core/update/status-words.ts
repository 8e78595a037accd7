/**
 * What the update status says at each step (Settings -> Updates, doctor): downloading, ready,
 * installing, what became of the last install, and why the controller did not do what was asked.
 * Kept with the other words of core/update (said.ts) so that what a manager reads is in one room,
 * and the controller (src/main/updater.ts) only picks which sentence fits.
 */
import { KEEPS_WORKING } from './said';

/** The download under way, with how far it got when electron-updater says. */
export function downloadingMessage(version: string, percent: number | null = null): string {
  return `Downloading version ${version}${percent === null ? '' : ` (${percent} %)`}.`;
}

/** A download ready to install; `why` says why it is not installed yet (the policy's reason). */
export function readyMessage(version: string | null, why?: string): string {
  return why === undefined ? `Version ${version ?? '?'} is ready; it installs at a quiet moment.` : `Version ${version ?? '?'} is ready. ${why}`;
}

/** Without a sha512 electron-updater checks nothing, and an AppImage has no signature either. */
export function noChecksumMessage(version: string): string {
  return `The update feed gives no sha512 checksum for version ${version}, so it is not installed. ${KEEPS_WORKING}`;
}

/** A version whose install was refused before: the schedule does not try it again. */
export function failedBeforeMessage(version: string): string {
  return `Installing version ${version} failed before; a manager can try again from settings.`;
}

export function installingMessage(version: string | null, reason: string): string {
  return `Installing version ${version ?? ''}: ${reason}`;
}

export const INSTALL_FAILED_MESSAGE = `The update could not be installed. ${KEEPS_WORKING}`;

/** Said at start after the installer, which runs once Packdesk quit, did its work. */
export function updatedMessage(from: string, to: string): string {
  return `Updated from version ${from} to ${to}.`;
}

/** Said at start when the installer that ran after the last quit left the old version in place. */
export function installDidNotCompleteMessage(version: string, running: string): string {
  return `Installing version ${version} did not complete after Packdesk closed. This version (${running}) keeps working; a manager can try again from settings.`;
}

/** Why the feed address may not be read here, as the status says it. */
export function feedRefusedMessage(problem: string, environment: string | undefined): string {
  const where = environment === undefined ? '' : ` (${environment})`;
  return `${problem}; updates are off on this terminal${where} until the feed address is fixed. ${KEEPS_WORKING}`;
}

/** Why the controller did not do what it was asked, in words for the manager. */
export const NOT_NOW = {
  installing: 'Already installing.',
  notStarted: 'Updates have not started yet.',
  deciding: 'Already deciding; try again in a moment.',
  offInBuild: 'Updates are off in this build.',
  offInDevelopment: 'Updates are off in development builds.',
  nothingReady: 'No update is ready to install.',
} as const;
