/**
 * Redaction for anything that may reach a log line, an error message or a support bundle.
 * Known secret-bearing keys are masked wherever they appear, and registered secret values
 * (the client secret, live tokens) are masked wherever they appear in text.
 */

const SECRET_KEYS = /^(authorization|access_?token|refresh_?token|token|client_?secret|secret|password|pin|pin_?hash|packer_?pin)$/i;
const BEARER = /\b(O-Bearer|Bearer)\s+[A-Za-z0-9._~+/=-]+/g;
/** A NATS nkey seed (a chain credentials file's secret half): S, its kind, 56 base32 characters. */
const NKEY_SEED = /\bS[UOANCPX][A-Z2-7]{56}\b/g;
const FORM_SECRET = /\b(client_secret|access_token|refresh_token|token)=([^&\s"]+)/g;
const MASK = '[redacted]';

/** Secret values currently known to the process (client secret, tokens). */
export class SecretRegistry {
  private readonly values = new Set<string>();
  /** Remembers a value that must never be printed; short values are ignored to avoid masking noise. */
  add(value: string | undefined | null): void {
    if (value && value.length >= 6) this.values.add(value);
  }
  /** Forgets a value (e.g. a token that has been replaced stays registered: old tokens are still secrets). */
  delete(value: string): void {
    this.values.delete(value);
  }
  /** Masks every registered value and every bearer/form secret in a string. */
  redactText(text: string): string {
    let out = text.replace(BEARER, `$1 ${MASK}`).replace(FORM_SECRET, `$1=${MASK}`).replace(NKEY_SEED, MASK);
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(MASK);
    return out;
  }
  /** Deep-copies a value with secret keys masked and secret values removed from strings. */
  redact(value: unknown, depth = 0): unknown {
    if (depth > 8) return '[too deep]';
    if (typeof value === 'string') return this.redactText(value);
    if (value instanceof Error) return { name: value.name, message: this.redactText(value.message) };
    if (Array.isArray(value)) return value.map((v) => this.redact(v, depth + 1));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEYS.test(k) ? MASK : this.redact(v, depth + 1);
      return out;
    }
    return value;
  }
}

/** The process-wide registry: the token manager registers tokens, the vault registers the secret. */
export const secrets = new SecretRegistry();
