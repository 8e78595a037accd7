/**
 * The Electron fuses Packdesk ships with, and where the packed Electron binary is. Kept apart
 * from the hook so the exact set is tested (test/build/packaging.test.ts) against a fuse wire.
 */
import path from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';

/** Fuse settings: nothing may turn the app back into a general-purpose Node runtime. */
export function packdeskFuses() {
  return {
    version: FuseVersion.V1,
    // macOS binaries must be re-signed ad hoc after flipping; harmless elsewhere.
    resetAdHocDarwinSignature: true,
    // ELECTRON_RUN_AS_NODE would run any script with the app's privileges (and keychain access).
    [FuseV1Options.RunAsNode]: false,
    // Cookies and local storage encrypted with an OS-protected key.
    [FuseV1Options.EnableCookieEncryption]: true,
    // NODE_OPTIONS could preload arbitrary code into the main process.
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    // --inspect would open a debugger into the main process (and its secrets).
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    // The asar's header hash is checked against the one embedded at packaging (Windows, macOS).
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    // Only app.asar is loaded: a planted resources/app folder is ignored.
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    // The UI is served from app://, never file://, so file:// needs no extra privileges.
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

/**
 * The packed Electron executable for an afterPack context, named as electron-builder names it
 * (see its PlatformPackager.addElectronFuses).
 */
export function electronBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  switch (electronPlatformName) {
    case 'win32':
      return path.join(appOutDir, `${packager.appInfo.productFilename}.exe`);
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${packager.appInfo.productFilename}.app`);
    case 'linux':
      return path.join(appOutDir, packager.executableName);
    default:
      throw new Error(`Packdesk fuses: unsupported platform ${electronPlatformName}`);
  }
}
