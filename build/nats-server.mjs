/**
 * The store hub's program for the installers: a pinned upstream nats-server (Apache-2.0) for each
 * target, fetched by `npm run package` like Electron itself, its archive's SHA-256 checked against
 * the pin below, and its binary and LICENSE placed in build/nats-server/<target>/, which
 * electron-builder copies to the installed app's resources/nats-server/ (outside the asar archive;
 * Packdesk finds it there). Debian's 2.9.10 has CVE-2023-47090 and never ships in an installer.
 *
 * To move the pin: take the new version's sha256 for the linux-amd64 .tar.gz and windows-amd64
 * .zip from the release's SHA256SUMS (nats-io/nats-server releases; nats-io/nats-docker repeats
 * them), and change both here.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { gunzipSync, inflateRawSync } from 'node:zlib';

export const NATS_SERVER_VERSION = '2.12.15';

/** What each installer target carries. */
export const NATS_SERVER_PINS = {
  'linux-x64': {
    archive: `nats-server-v${NATS_SERVER_VERSION}-linux-amd64.tar.gz`,
    sha256: '58ab8131f819263897e2fc38e503e1b755b63bcafeecc7d12582487df48ca15e',
    binary: 'nats-server',
  },
  'win32-x64': {
    archive: `nats-server-v${NATS_SERVER_VERSION}-windows-amd64.zip`,
    sha256: 'ed2f6d265abb6c6b151b077d1b6810d006f6e01453d864104de5ce4dc6ee6c27',
    binary: 'nats-server.exe',
  },
};

/** Where upstream publishes a release's archives. */
export function releaseUrl(version, archive) {
  return `https://github.com/nats-io/nats-server/releases/download/v${version}/${archive}`;
}

/** The files in a .tar.gz, as name -> bytes (regular files only). */
export function readTarGz(bytes) {
  const tar = gunzipSync(bytes);
  const files = new Map();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from, to) => header.subarray(from, to).toString('latin1').replace(/\0.*$/s, '');
    const prefix = field(345, 500);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 136).trim() || '0', 8);
    const type = field(156, 157);
    at += 512;
    if (type === '0' || type === '') files.set(name, Buffer.from(tar.subarray(at, at + size)));
    at += Math.ceil(size / 512) * 512;
  }
  return files;
}

/** The files in a .zip, as name -> bytes (stored or deflated entries, read from the central directory). */
export function readZip(bytes) {
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip archive');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error('damaged zip directory');
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    const dataAt = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(dataAt, dataAt + compressed);
    if (method === 0) files.set(name, Buffer.from(data));
    else if (method === 8) files.set(name, inflateRawSync(data));
    else throw new Error(`zip entry ${name} uses compression method ${method}`);
  }
  return files;
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Downloads a URL to a file with fetch (follows GitHub's redirect to its storage). */
export async function download(url, file) {
  let response;
  try {
    response = await globalThis.fetch(url, { redirect: 'follow' });
  } catch (error) {
    throw new Error(`nats-server download failed: ${url}: ${error instanceof Error ? error.message : String(error)} (packaging needs the network, as for Electron)`);
  }
  if (!response.ok) throw new Error(`nats-server download failed: ${url} answered ${response.status}`);
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
}

/**
 * Fetches (or reuses from cacheDir) one target's pinned archive, checks its SHA-256, and places
 * the binary and LICENSE in outDir. A wrong checksum fails the packaging and places nothing.
 */
export async function prepareNatsServer({ target, cacheDir, outDir, pins = NATS_SERVER_PINS, version = NATS_SERVER_VERSION, fetchTo = download }) {
  const pin = pins[target];
  if (!pin) throw new Error(`No nats-server is pinned for ${target}`);
  mkdirSync(cacheDir, { recursive: true });
  const archive = path.join(cacheDir, pin.archive);
  if (!existsSync(archive) || sha256(readFileSync(archive)) !== pin.sha256) {
    const partial = `${archive}.part`;
    await fetchTo(releaseUrl(version, pin.archive), partial);
    renameSync(partial, archive);
  }
  const bytes = readFileSync(archive);
  const actual = sha256(bytes);
  if (actual !== pin.sha256) {
    rmSync(archive, { force: true });
    throw new Error(`nats-server archive ${pin.archive} has SHA-256 ${actual}, not the pinned ${pin.sha256}: refusing to ship it`);
  }
  const files = pin.archive.endsWith('.zip') ? readZip(bytes) : readTarGz(bytes);
  const pick = (base) => [...files.entries()].find(([name]) => path.posix.basename(name) === base)?.[1];
  const binary = pick(pin.binary);
  const licence = pick('LICENSE');
  if (!binary) throw new Error(`nats-server archive ${pin.archive} holds no ${pin.binary}`);
  if (!licence) throw new Error(`nats-server archive ${pin.archive} holds no LICENSE`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, pin.binary), binary);
  chmodSync(path.join(outDir, pin.binary), 0o755);
  writeFileSync(path.join(outDir, 'LICENSE'), licence);
  writeFileSync(path.join(outDir, 'VERSION'), `nats-server ${version}\narchive ${pin.archive}\nsha256 ${pin.sha256}\n`);
  return { binary: path.join(outDir, pin.binary), sha256: actual };
}

/** `node build/nats-server.mjs`: prepares every target into build/nats-server/<target>/ (cache: .tmp/nats-server/). */
async function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (const target of Object.keys(NATS_SERVER_PINS)) {
    const placed = await prepareNatsServer({ target, cacheDir: path.join(root, '.tmp', 'nats-server'), outDir: path.join(root, 'build', 'nats-server', target) });
    process.stdout.write(`  • nats-server ${NATS_SERVER_VERSION} for ${target}: ${placed.binary} (archive sha256 checked)\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
