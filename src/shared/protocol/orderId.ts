/**
 * The one rule for identifiers, order ids above all: what intake, the scan/type field, the IPC
 * contract, the CLI and every screen accept, and how an id that breaks it is shown. Without zod,
 * so the renderer can use it (the zod form is `OrderIdSchema` in schemas.ts).
 */

/** The longest id accepted: longer ones could be neither typed, scanned nor shown whole. */
export const MAX_ID_LENGTH = 128;

// C0 and C1 controls and DEL: a terminal or a log would act on them rather than show them.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
// Half of a surrogate pair: UTF-8 cannot hold it, so SQLite and JSON would store U+FFFD, another id.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// U+FFFD stands for a character that was lost on the way (a lone surrogate on a command line, bad
// UTF-8): the id is not the one the service knows.
const REPLACEMENT_CHAR = /\uFFFD/;
// Invisible format characters (bidi overrides, marks and isolates, zero-width spaces) and line or
// paragraph separators: the id on screen would not be the id sent.
const FORMAT_CHARS = /[\p{Cf}\u2028\u2029]/u;
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Why an identifier's characters cannot be used as given, or null when they can. */
export function idFault(value: string): string | null {
  // Nearly every id is plain printable ASCII, and none of the checks below can fail on it.
  if (PLAIN_ASCII.test(value)) return null;
  if (CONTROL_CHARS.test(value)) return 'contains control characters';
  if (LONE_SURROGATE.test(value)) return 'contains a broken character (half of a surrogate pair)';
  if (REPLACEMENT_CHAR.test(value)) return 'contains a character that was lost on the way (U+FFFD)';
  if (FORMAT_CHARS.test(value)) return 'contains invisible direction or format characters';
  return null;
}

/**
 * Why `value` is not a usable order id, or null when it is: 1 to MAX_ID_LENGTH characters, no
 * spaces at its ends, nothing invisible, broken or controlling (`idFault`). Input a person typed
 * is trimmed before it is checked; an id from the service is checked as sent.
 */
export function orderIdProblem(value: string): string | null {
  if (value.length === 0) return 'is empty';
  if (value.length > MAX_ID_LENGTH) return `is too long (${value.length} characters, at most ${MAX_ID_LENGTH})`;
  if (value.trim() !== value) return 'has spaces at its ends';
  return idFault(value);
}

// Everything `idFault` refuses, one character (or lone surrogate half) at a time.
// eslint-disable-next-line no-control-regex
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\uFFFD\u2028\u2029]|\p{Cf}|[\uD800-\uDFFF]/gu;

// \uXXXX per UTF-16 unit: readable, and in --json output the same escape JSON itself uses, so the
// exact id still parses back.
const escape = (c: string): string =>
  Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`).join('');

/**
 * An id as it may be shown or printed: every character `orderIdProblem` refuses written as
 * `\uXXXX`, and anything past MAX_ID_LENGTH cut to "…". A good id comes back unchanged.
 */
export function printableId(value: string): string {
  const escaped = PLAIN_ASCII.test(value) ? value : value.replace(UNSHOWABLE, escape);
  return escaped.length > MAX_ID_LENGTH ? `${escaped.slice(0, MAX_ID_LENGTH - 1)}…` : escaped;
}

// In text, line breaks and tabs stay, and so do the joiners (U+200C, U+200D): Devanagari and emoji
// need them, and they can neither reorder nor hide what follows.
// eslint-disable-next-line no-control-regex
const UNSHOWABLE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\uFFFD\u2028\u2029]|(?![\u200C\u200D])\p{Cf}|[\uD800-\uDFFF]/gu;

/**
 * Text from outside (names of customers, items, packers and counters, invoice numbers, the
 * service's words) as every screen, slip, pick list, summary, CSV, the fleet page and the CLI show
 * it: controls, broken characters and invisible format characters written as `\uXXXX`, the
 * bidirectional controls above all (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C). A right-to-left
 * override in a customer's name turned the rest of the queue row around. The one function for
 * this: the CLI escapes its whole output with it, the screens each outside string they show, and
 * i18next every value it puts into a sentence. Plain text comes back unchanged, and text once
 * escaped is escaped no further.
 */
export function printableText(text: string): string {
  return PLAIN_ASCII.test(text) ? text : text.replace(UNSHOWABLE_IN_TEXT, escape);
}

/** printableText for a value that may be absent: null and undefined stay as they are. */
export function printableOrNull<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? printableText(text) : text) as T;
}
