/**
 * Packers' badges, as data both sides read: a badge code is `PDKS-` and 8 characters of Crockford's
 * base 32 (digits and capitals without I, L, O, U), e.g. `PDKS-7Q4K9M2X`. The prefix is checked
 * before anything else a scan may be (an order id, an invoice, a product), so a badge is never
 * taken for one of them; no order id, GTIN or item code of the marketplace starts so.
 */

/** What every badge code starts with. */
export const BADGE_PREFIX = 'PDKS-';
/** The characters after the prefix (Crockford's base 32). */
export const BADGE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BADGE = /^PDKS-[0-9A-HJKMNP-TV-Z]{8}$/;

/** True when `code` (as scanned or typed, any case) is a badge code. */
export function isBadgeCode(code: string): boolean {
  return BADGE.test(code.trim().toUpperCase());
}

/** A scanned or typed badge code as stored (capitals, no spaces at its ends). */
export function normalBadge(code: string): string {
  return code.trim().toUpperCase();
}

/** True when `code` starts like a badge (a misread or damaged badge is still never an order or an invoice). */
export function looksLikeBadge(code: string): boolean {
  return code.trim().toUpperCase().startsWith(BADGE_PREFIX);
}

/** Longest packer name (the store hub's claim carries it: `Claim.packer`). */
export const PACKER_NAME_MAX = 60;
