/**
 * The join code a manager types or scans to join a counter to the store hub: the hub's IPv4 address
 * and port, the store's secret and the first 96 bits of the hub certificate's SHA-256 fingerprint,
 * with a 16-bit check so a typing mistake is caught here ("This join code has a typing mistake")
 * instead of turning into a connection error. Text form: "PD1-" then 52 Crockford base32 letters in
 * groups of four (no I, L, O or U; lower case, O for 0 and I/L for 1 are read as meant).
 */
import { createHash } from 'node:crypto';
import bwipjs from 'bwip-js/node';
import { z } from 'zod';
import type { HubTarget } from './nats/connection';

/** The version prefix of the codes this Packdesk makes. */
export const JOIN_CODE_PREFIX = 'PD1';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SECRET_BYTES = 12;
const FINGERPRINT_BYTES = 12;
const CHECK_BYTES = 2;
const PAYLOAD_BYTES = 4 + 2 + SECRET_BYTES + FINGERPRINT_BYTES;
const TEXT_LENGTH = Math.ceil(((PAYLOAD_BYTES + CHECK_BYTES) * 8) / 5);

/** What a join code carries (a HubTarget with the fingerprint's first 24 hex digits). */
export const JoinCodeSchema = z.object({
  host: z.string().regex(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, 'an IPv4 address').refine((h) => h.split('.').every((p) => Number(p) <= 255), 'an IPv4 address'),
  port: z.number().int().min(1).max(65_535),
  secret: z.string().regex(/^[0-9a-f]{24}$/, 'the store secret: 24 hex digits'),
  fingerprint: z.string().regex(/^[0-9a-f]{24,64}$/, 'a certificate fingerprint in hex'),
});
export type JoinCode = z.infer<typeof JoinCodeSchema> & HubTarget;

export type JoinCodeProblemKind = 'typo' | 'newer' | 'notACode';

export type JoinCodeParsed = { readonly ok: true; readonly code: JoinCode } | { readonly ok: false; readonly kind: JoinCodeProblemKind; readonly message: string };

function refused(kind: JoinCodeProblemKind): JoinCodeParsed {
  return { ok: false, kind, message: JOIN_CODE_WORDS[kind] };
}

/** The words for each way a typed code can be wrong. */
export const JOIN_CODE_WORDS: Readonly<Record<JoinCodeProblemKind, string>> = {
  typo: 'This join code has a typing mistake. Check each letter and digit against the join slip (or scan its barcode).',
  newer: 'This join code was made by a newer Packdesk. Update Packdesk on this counter, then join again.',
  notACode: 'This is not a Packdesk join code. It starts with PD1- and is printed on the hub\'s join slip.',
};

function checkOf(payload: Uint8Array): Buffer {
  return createHash('sha256').update(JOIN_CODE_PREFIX).update(payload).digest().subarray(0, CHECK_BYTES);
}

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string, size: number): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const digit = ALPHABET.indexOf(ch);
    if (digit < 0) return null;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  // The last letter's spare bits are always zero: a letter typed wrong there is a mistake too.
  if (bits > 0 && (value & ((1 << bits) - 1)) !== 0) return null;
  return bytes.length === size ? Buffer.from(bytes) : null;
}

/** Makes the join code for a hub. */
export function formatJoinCode(target: HubTarget): string {
  const code = JoinCodeSchema.parse({ ...target, fingerprint: target.fingerprint.toLowerCase() });
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  code.host.split('.').forEach((part, i) => payload.writeUInt8(Number(part), i));
  payload.writeUInt16BE(code.port, 4);
  Buffer.from(code.secret, 'hex').copy(payload, 6);
  Buffer.from(code.fingerprint.slice(0, FINGERPRINT_BYTES * 2), 'hex').copy(payload, 6 + SECRET_BYTES);
  const text = base32(Buffer.concat([payload, checkOf(payload)]));
  return [JOIN_CODE_PREFIX, ...(text.match(/.{1,4}/g) ?? [])].join('-');
}

/** Reads a typed or scanned join code; a mistake is a problem in words, never an exception. */
export function parseJoinCode(input: string): JoinCodeParsed {
  const cleaned = input
    .toUpperCase()
    .replace(/[\s\-_.]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  // One digit of version: the letters after it may be digits too when typed without dashes.
  const prefix = /^PD(\d)/.exec(cleaned);
  if (!prefix) return refused('notACode');
  if (prefix[1] !== JOIN_CODE_PREFIX.slice(2)) return refused(Number(prefix[1]) > 1 ? 'newer' : 'typo');
  const body = cleaned.slice(prefix[0].length);
  const typo = refused('typo');
  if (body.length !== TEXT_LENGTH) return typo;
  const bytes = unbase32(body, PAYLOAD_BYTES + CHECK_BYTES);
  if (!bytes) return typo;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  if (!checkOf(payload).equals(bytes.subarray(PAYLOAD_BYTES))) return typo;
  const parsed = JoinCodeSchema.safeParse({
    host: [...payload.subarray(0, 4)].join('.'),
    port: payload.readUInt16BE(4),
    secret: payload.subarray(6, 6 + SECRET_BYTES).toString('hex'),
    fingerprint: payload.subarray(6 + SECRET_BYTES, PAYLOAD_BYTES).toString('hex'),
  });
  return parsed.success ? { ok: true, code: parsed.data } : typo;
}

/** The join code as a QR code in SVG, for the printable join slip. */
export function joinCodeBarcodeSvg(code: string): string {
  return bwipjs.toSVG({ bcid: 'qrcode', text: code.toUpperCase(), backgroundcolor: 'FFFFFF', scale: 4, paddingwidth: 4, paddingheight: 4 });
}

/** The join code as a QR code in PNG (for a file to send or print elsewhere). */
export async function joinCodeBarcodePng(code: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'qrcode', text: code.toUpperCase(), backgroundcolor: 'FFFFFF', scale: 6, paddingwidth: 6, paddingheight: 6 });
}
