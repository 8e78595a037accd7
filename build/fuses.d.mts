import type { FuseV1Config } from '@electron/fuses';

/** Fuse settings Packdesk ships with. */
export function packdeskFuses(): FuseV1Config;

/** The afterPack context fields used to find the Electron executable. */
export interface PackContextLike {
  readonly appOutDir: string;
  readonly electronPlatformName: string;
  readonly packager: { readonly appInfo: { readonly productFilename: string }; readonly executableName?: string };
}

/** The packed Electron executable for an afterPack context. */
export function electronBinaryPath(context: PackContextLike): string;
