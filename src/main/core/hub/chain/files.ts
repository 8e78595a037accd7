/**
 * Settings -> Chain on the hub PC: the manager's link request turned into the hub's files. The
 * credentials file holds the store's nkey seed, a secret: nats-server reads it only from a file,
 * so it is written where the hub's server runs and nowhere else (`hub/chain.creds`, 0600, beside
 * the hub's TLS key, which is as secret), never into the keychain as a second copy, never back to
 * the screens, and removed on unlink. The CA certificate is public and kept beside it. See
 * docs/fleet.md.
 */
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ChainLink, readChainLink, writeChainLink } from './link';
import { CHAIN_FIELD_WORDS, type ChainField, chainFieldErrors, type ChainLinkRequest } from '../../../../shared/chain';
import { fail, ok, type Result } from '../../../../shared/result';
import { configuredListen, configuredPasswordHash, type HubFiles, writeHubConfig } from '../server/hub-files';

/** Where the hub keeps the chain's files. */
export function chainFiles(files: HubFiles): { readonly credsPath: string; readonly caPath: string } {
  return { credsPath: path.join(files.dir, 'chain.creds'), caPath: path.join(files.dir, 'chain-ca.pem') };
}

/** A field's problem as an answer: English words, the code and field for the screens to word. */
function fieldProblem(field: ChainField | 'request', code: string): Result<never> {
  return fail('invalid', CHAIN_FIELD_WORDS[code] ?? CHAIN_FIELD_WORDS.request!, 'CHAIN_FIELD', { field, code });
}

/** Writes a file readable by this user only (writeFileSync's mode applies only when it creates it). */
function writePrivate(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  try {
    chmodSync(file, 0o600);
  } catch {
    // Windows has no such modes; the data folder is the user's own.
  }
}

/**
 * Checks the request (every field, TLS and credentials outside training), writes the chain's files
 * and chain.json, and rewrites nats.conf with the leaf link; the caller restarts the hub's server.
 */
export function saveChainLink(files: HubFiles, input: unknown, training: boolean): Result<ChainLink> {
  const errors = Object.entries(chainFieldErrors(input, training));
  if (errors.length > 0) {
    const [field, code] = errors[0]!;
    return fieldProblem(field as ChainField, code);
  }
  const request = input as ChainLinkRequest;
  if (request.ca !== null) {
    try {
      new X509Certificate(request.ca);
    } catch {
      return fieldProblem('ca', 'caForm');
    }
  }
  const listen = configuredListen(files);
  const hash = configuredPasswordHash(files);
  if (!listen || !hash) return fail('invalid', 'Only the store hub PC links to the chain.', 'CHAIN_NOT_HUB');
  const { credsPath, caPath } = chainFiles(files);
  if (request.credentials !== null) writePrivate(credsPath, request.credentials.trim() + '\n');
  else rmSync(credsPath, { force: true });
  if (request.ca !== null) writeFileSync(caPath, request.ca.trim() + '\n');
  else rmSync(caPath, { force: true });
  const link: ChainLink = {
    storeId: request.storeId.trim(),
    url: request.url.trim(),
    credentialsPath: request.credentials !== null ? credsPath : null,
    caPath: request.ca !== null ? caPath : null,
    training,
  };
  writeChainLink(files.dir, link);
  writeHubConfig(files, listen, hash, link);
  return ok(link);
}

/** Unlinks: chain.json, the credentials (the seed) and the CA removed, nats.conf without the leaf link. */
export function removeChainLink(files: HubFiles): void {
  const { credsPath, caPath } = chainFiles(files);
  writeChainLink(files.dir, null);
  rmSync(credsPath, { force: true });
  rmSync(caPath, { force: true });
  const listen = configuredListen(files);
  const hash = configuredPasswordHash(files);
  if (listen && hash) writeHubConfig(files, listen, hash, null);
}

/** The saved link, and whether its files are there (a creds file removed by hand is said, not hidden). */
export function savedChainLink(files: HubFiles): { link: ChainLink | null; problem: string | null } {
  const read = readChainLink(files.dir);
  if (!read.link) return read;
  const missing = [read.link.credentialsPath, read.link.caPath].filter((f): f is string => f !== null && !existsSync(f));
  return { link: read.link, problem: missing.length > 0 ? `A chain file is missing: ${missing.map((f) => path.basename(f)).join(', ')}; link the store again.` : null };
}
