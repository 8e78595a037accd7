/**
 * The hub's files in the data folder (`<dataDir>/hub/`): its TLS certificate and key, made when the
 * hub is created (with selfsigned, so no openssl program is needed: Windows terminals have none),
 * the JetStream store folder, nats-server's pid file and its generated configuration. The store's
 * secret is in no file: nats.conf holds only its bcrypt hash; the secret itself is in the keychain.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { generate } from 'selfsigned';
import { type ChainLink, readChainLink } from '../chain/link';
import { accountsBlock, leafnodesBlock } from './accounts';

/** The user name every counter connects as; the store's secret is its password. */
export const HUB_USER = 'packdesk';

export interface HubFiles {
  readonly dir: string;
  readonly certPath: string;
  readonly keyPath: string;
  readonly configPath: string;
  readonly storeDir: string;
  readonly pidPath: string;
  /** What nats-server writes its log lines to (kept short: the supervisor reads stderr too). */
  readonly logPath: string;
}

/** Where a data folder's hub files live. */
export function hubFiles(dataDir: string): HubFiles {
  const dir = path.join(dataDir, 'hub');
  return {
    dir,
    certPath: path.join(dir, 'hub-cert.pem'),
    keyPath: path.join(dir, 'hub-key.pem'),
    configPath: path.join(dir, 'nats.conf'),
    storeDir: path.join(dir, 'jetstream'),
    pidPath: path.join(dir, 'nats-server.pid'),
    logPath: path.join(dir, 'nats-server.log'),
  };
}

/** The SHA-256 fingerprint of a PEM certificate's DER bytes, as 64 lowercase hex digits. */
export function certificateFingerprint(certPem: string): string {
  return createHash('sha256').update(new X509Certificate(certPem).raw).digest('hex');
}

export interface CertificateOptions {
  /** Addresses the certificate names (the pin is what counters check; names only help other tools). */
  readonly ips: readonly string[];
  readonly now: Date;
  readonly commonName?: string;
}

/** Makes the hub's self-signed certificate and key; valid for 25 years, since counters pin it rather than trust a date. */
export async function makeCertificate(options: CertificateOptions): Promise<{ certPem: string; keyPem: string; fingerprint: string }> {
  const notAfter = new Date(options.now);
  notAfter.setFullYear(notAfter.getFullYear() + 25);
  const ips = [...new Set(['127.0.0.1', ...options.ips.filter((ip) => /^\d+\.\d+\.\d+\.\d+$/.test(ip) && ip !== '0.0.0.0')])];
  const pems = await generate([{ name: 'commonName', value: options.commonName ?? 'Packdesk store hub' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(options.now.getTime() - 60_000),
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, ...ips.map((ip) => ({ type: 7 as const, ip }))] },
    ],
  });
  return { certPem: pems.cert, keyPem: pems.private, fingerprint: certificateFingerprint(pems.cert) };
}

/** nats-server reads forward slashes on every OS; a backslash would start an escape in its quoted strings. */
function confPath(file: string): string {
  return JSON.stringify(file.split(path.sep).join('/'));
}

/** bcrypts the store's secret for nats.conf (nats-server accepts $2a$/$2b$ hashes as passwords). */
export function hashSecret(secret: string, rounds = 10): string {
  return bcrypt.hashSync(secret, rounds);
}

/**
 * The text of nats.conf: TLS required, the counters' account (one user whose password is the
 * bcrypted secret), JetStream in the data folder; with a chain link, also the chain's account and
 * a leaf node of the chain's centre bound to it, in the store's domain (server/accounts.ts).
 */
export function natsConfig(
  files: HubFiles,
  listen: string,
  passwordHash: string,
  chain: ChainLink | null = null,
  monitorPort: number | null = null,
  keeperHash: string | null = null,
): string {
  return [
    '# Written by Packdesk when this PC became the store hub. Packdesk rewrites it; edits are lost.',
    `listen: ${JSON.stringify(listen)}`,
    // Unique across a chain: leaf nodes sharing a server name confuse the centre's JetStream (half the
    // requests into a store's domain came back "no responders" with two stores named alike).
    `server_name: ${chain ? `packdesk_hub_${chain.storeId}` : 'packdesk_hub'}`,
    `pid_file: ${confPath(files.pidPath)}`,
    // Nothing on the LAN without TLS: a plain-text client is refused before it can say anything.
    `tls {\n  cert_file: ${confPath(files.certPath)}\n  key_file: ${confPath(files.keyPath)}\n  timeout: 3\n}`,
    'authorization {\n  timeout: 3\n}',
    accountsBlock({ user: HUB_USER, passwordHash, chain, keeperHash }),
    `jetstream {\n  store_dir: ${confPath(files.storeDir)}\n  max_memory_store: 64MB\n  max_file_store: 2GB${chain ? `\n  domain: ${JSON.stringify(chain.storeId)}` : ''}\n}`,
    ...(chain ? [leafnodesBlock(chain, confPath)] : []),
    // The leaf link's state (/leafz) for Settings -> Chain; on this PC only, a port chosen at each start.
    ...(monitorPort !== null ? [`http: "127.0.0.1:${monitorPort}"`] : []),
    '',
  ].join('\n');
}

export interface CreateHubFilesOptions {
  readonly listen: string;
  readonly secret: string;
  readonly now: Date;
  /** Addresses the certificate names besides 127.0.0.1 (this PC's LAN addresses). */
  readonly ips?: readonly string[];
  /** The chain's centre to join as a leaf node (docs/fleet.md); none: the store stands alone. */
  readonly chain?: ChainLink | null;
}

/**
 * Writes a new hub's certificate, key and nats.conf and makes its store folder; returns the
 * certificate's fingerprint. An existing certificate is kept (counters that joined pin it).
 */
export async function createHubFiles(files: HubFiles, options: CreateHubFilesOptions): Promise<{ fingerprint: string; madeCertificate: boolean }> {
  mkdirSync(files.storeDir, { recursive: true });
  let madeCertificate = false;
  if (!existsSync(files.certPath) || !existsSync(files.keyPath)) {
    const cert = await makeCertificate({ ips: options.ips ?? [], now: options.now });
    writeFileSync(files.keyPath, cert.keyPem, { mode: 0o600 });
    writeFileSync(files.certPath, cert.certPem);
    madeCertificate = true;
  }
  writeHubConfig(files, options.listen, hashSecret(options.secret), options.chain ?? readChainLink(files.dir).link);
  return { fingerprint: certificateFingerprint(readFileSync(files.certPath, 'utf8')), madeCertificate };
}

/** (Re)writes nats.conf, readable by this user only; the chain link defaults to the one saved in the hub's folder (docs/fleet.md). */
export function writeHubConfig(
  files: HubFiles,
  listen: string,
  passwordHash: string,
  chain: ChainLink | null = readChainLink(files.dir).link,
  monitorPort: number | null = null,
  keeperHash: string | null = null,
): void {
  writeFileSync(files.configPath, natsConfig(files, listen, passwordHash, chain, monitorPort, keeperHash), { mode: 0o600 });
  // writeFileSync's mode applies only when it creates the file.
  try {
    chmodSync(files.configPath, 0o600);
  } catch {
    // Windows has no such modes; the data folder is the user's own.
  }
}

/** The bcrypted password written in an existing nats.conf, or null (to rewrite the file without the secret). */
export function configuredPasswordHash(files: HubFiles): string | null {
  if (!existsSync(files.configPath)) return null;
  // The counters' user: in `accounts { STORE { users } }` since accounts came in, at the top before.
  const text = readFileSync(files.configPath, 'utf8');
  const match = new RegExp(`user:\\s*"${HUB_USER}",\\s*password:\\s*"([^"]+)"`).exec(text) ?? /^\s*password:\s*"([^"]+)"/m.exec(text);
  return match?.[1] ?? null;
}

/** The monitoring port written in an existing nats.conf (a hub in a chain), or null. */
export function configuredMonitorPort(files: HubFiles): number | null {
  if (!existsSync(files.configPath)) return null;
  const match = /^http:\s*"127\.0\.0\.1:(\d+)"/m.exec(readFileSync(files.configPath, 'utf8'));
  return match ? Number(match[1]) : null;
}

/** The listen address written in an existing nats.conf, or null. */
export function configuredListen(files: HubFiles): string | null {
  if (!existsSync(files.configPath)) return null;
  const match = /^listen:\s*"([^"]+)"/m.exec(readFileSync(files.configPath, 'utf8'));
  return match?.[1] ?? null;
}
