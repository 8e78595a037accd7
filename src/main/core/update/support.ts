/** Whether this installation updates itself, and which channel file it reads: plain rules, no Electron. */

/**
 * Whether this installation updates itself. Windows (NSIS) and the Linux AppImage replace
 * themselves without asking anyone; a .deb install would need root (electron-updater runs pkexec,
 * which puts a password prompt in front of a packer), so it is left to the system's package
 * manager. Unpackaged runs have no feed.
 */
export function updateSupport(env: { platform: NodeJS.Platform; isPackaged: boolean; appImage: string | undefined }): string | null {
  if (!env.isPackaged) return 'Updates are off in development builds.';
  if (env.platform === 'win32') return null;
  if (env.platform === 'linux') return env.appImage ? null : "This installation (.deb) is updated through the system's package manager.";
  return `Updates are not supported on ${env.platform}.`;
}

/** electron-updater's channel file for a settings channel: stable reads latest.yml. */
export function feedChannel(channel: 'stable' | 'beta'): string {
  return channel === 'beta' ? 'beta' : 'latest';
}
