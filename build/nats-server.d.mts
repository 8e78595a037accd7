export interface NatsServerPin {
  readonly archive: string;
  readonly sha256: string;
  readonly binary: string;
}
export const NATS_SERVER_VERSION: string;
export const NATS_SERVER_PINS: Readonly<Record<string, NatsServerPin>>;
export function releaseUrl(version: string, archive: string): string;
export function readTarGz(bytes: Buffer): Map<string, Buffer>;
export function readZip(bytes: Buffer): Map<string, Buffer>;
export function download(url: string, file: string): Promise<void>;
export function prepareNatsServer(options: {
  target: string;
  cacheDir: string;
  outDir: string;
  pins?: Readonly<Record<string, NatsServerPin>>;
  version?: string;
  fetchTo?: (url: string, file: string) => Promise<void>;
}): Promise<{ binary: string; sha256: string }>;
