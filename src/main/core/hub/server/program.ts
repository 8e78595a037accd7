/**
 * Finding the nats-server program and deciding whether its version may run a hub. Packdesk never
 * writes a server of its own: it runs upstream nats-server (the installers carry a pinned one; a
 * development machine uses Debian's). No electron import: the resources folder is passed in.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The first nats-server version without the authentication bypass CVE-2023-47090. */
export const SAFE_NATS_VERSION = '2.9.23';

export interface ProgramSearch {
  /** An explicit path (the `PACKDESK_NATS_SERVER` environment variable). */
  readonly explicit?: string | undefined;
  /** The installed app's resources folder (Electron's `process.resourcesPath`); its `nats-server/` holds the pinned program. */
  readonly resourcesPath?: string | undefined;
  /** The PATH to search (default `process.env.PATH`). */
  readonly pathEnv?: string | undefined;
  readonly platform?: NodeJS.Platform;
  /** Whether a file exists (injected by tests). */
  readonly exists?: (file: string) => boolean;
}

export type ProgramFound = { readonly ok: true; readonly program: string; readonly from: 'explicit' | 'resources' | 'path' | 'system' } | { readonly ok: false; readonly message: string };

/** Finds nats-server: an explicit path, the installer's resources, the PATH, then /usr/sbin (Debian puts it there, off most users' PATH). */
export function findNatsServer(search: ProgramSearch = {}): ProgramFound {
  const platform = search.platform ?? process.platform;
  const exists = search.exists ?? existsSync;
  const name = platform === 'win32' ? 'nats-server.exe' : 'nats-server';
  if (search.explicit) {
    if (exists(search.explicit)) return { ok: true, program: search.explicit, from: 'explicit' };
    return { ok: false, message: `The hub program named by PACKDESK_NATS_SERVER does not exist: ${search.explicit}` };
  }
  if (search.resourcesPath) {
    const bundled = path.join(search.resourcesPath, 'nats-server', name);
    if (exists(bundled)) return { ok: true, program: bundled, from: 'resources' };
  }
  const delimiter = platform === 'win32' ? ';' : ':';
  for (const dir of (search.pathEnv ?? process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (exists(candidate)) return { ok: true, program: candidate, from: 'path' };
  }
  if (platform !== 'win32') {
    for (const dir of ['/usr/sbin', '/usr/local/sbin', '/usr/local/bin']) {
      const candidate = path.join(dir, name);
      if (exists(candidate)) return { ok: true, program: candidate, from: 'system' };
    }
  }
  return {
    ok: false,
    message:
      platform === 'win32'
        ? 'The hub program (nats-server) is missing from this installation; reinstall Packdesk.'
        : 'The hub program (nats-server) is not installed; install the nats-server package (scripts/setup.sh does) or set PACKDESK_NATS_SERVER.',
  };
}

/** The version `nats-server --version` prints ("nats-server: v2.9.10"), or a problem in words. */
export async function readNatsVersion(program: string, timeoutMs = 5000): Promise<{ ok: true; version: string } | { ok: false; message: string }> {
  return new Promise((resolve) => {
    execFile(program, ['--version'], { timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      const text = `${stdout}${stderr}`;
      const version = parseNatsVersion(text);
      if (version) resolve({ ok: true, version });
      else resolve({ ok: false, message: `The hub program ${program} could not tell its version${error ? ` (${error.message.slice(0, 200)})` : ''}.` });
    });
  });
}

/** "nats-server: v2.9.10" -> "2.9.10"; null when the text names no version. */
export function parseNatsVersion(text: string): string | null {
  return /v?(\d+\.\d+\.\d+)/.exec(text)?.[1] ?? null;
}

/** Compares dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether a listen host is this PC only (127.0.0.1 and friends): no other machine can reach it. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Refuses, in words, a hub that other machines could reach with a nats-server older than 2.9.23
 * (CVE-2023-47090: an authentication bypass). 127.0.0.1 is allowed: tests run Debian's 2.9.10.
 */
export function versionRefusal(version: string, listenHost: string): string | null {
  if (isLoopbackHost(listenHost)) return null;
  if (compareVersions(version, SAFE_NATS_VERSION) >= 0) return null;
  return `This hub program is nats-server ${version}, older than ${SAFE_NATS_VERSION}: it has a security hole (CVE-2023-47090) that lets other machines in without the store's secret, so Packdesk will not let it listen on the store's network (${listenHost}). Install Packdesk's own nats-server (reinstall Packdesk) or a newer one and point PACKDESK_NATS_SERVER at it.`;
}
