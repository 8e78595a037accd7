/**
 * KV keys for ids from outside (order ids, request ids). NATS keys allow only `-/_=.` and
 * alphanumerics, and `.` splits a key into tokens; an order id may hold anything. base64url of the
 * UTF-8 bytes is lossless and uses only key-safe characters, so every bucket keys ids this one way.
 */

/** The KV key (or key token) for an id. */
export function keyOf(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The id a key (or key token) made by keyOf stands for. */
export function idOfKey(key: string): string {
  return Buffer.from(key, 'base64url').toString('utf8');
}
