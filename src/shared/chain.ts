/**
 * The store's link to the chain's centre (Settings -> Chain, `doctor`, the support bundle), as data:
 * what a manager sends to link the store hub, and the link's state in words the screens, doctor and
 * the bundle say alike. See docs/fleet.md. The credentials file's text crosses IPC once, in
 * `chainLinkRequestSchema()`; no answer ever carries it back.
 */
import { z } from 'zod';
import { builtOnce } from './on-first-use';

/**
 * Field checks. Their messages are codes (`storeIdChars`), worded per language by the screens
 * (hub:chain.errors.*) and in English by CHAIN_FIELD_WORDS for the main side's answer.
 */
export const ChainStoreIdSchema = z
  .string()
  .trim()
  .min(1, 'storeIdEmpty')
  .max(64, 'storeIdLong')
  // A JetStream domain and a subject token: no spaces, dots, wildcards.
  .regex(/^[A-Za-z0-9_-]+$/, 'storeIdChars');

/** The centre's leaf node address. Plain `nats-leaf://` / `nats://` only in training (chainFieldErrors). */
export const ChainUrlSchema = z
  .string()
  .trim()
  .min(1, 'urlEmpty')
  .max(300, 'urlForm')
  .regex(/^(tls|nats-leaf|nats):\/\/[A-Za-z0-9.[\]:_-]+:\d{1,5}$/, 'urlForm');

/** An uploaded file's text is capped: a credentials file is about 1 KB, a CA certificate a few KB. */
export const CHAIN_FILE_MAX_CHARS = 16_384;
const FileText = z.string().max(CHAIN_FILE_MAX_CHARS, 'fileLarge');

/** What Settings -> Chain sends to link the store hub (manager PIN checked by the handler). */
export const chainLinkRequestSchema = builtOnce(() => z
  .object({
    storeId: ChainStoreIdSchema,
    url: ChainUrlSchema,
    /** The store's leaf credentials file (`.creds`: a user JWT and its nkey seed), as text; null in training only. */
    credentials: FileText.nullable(),
    /** The chain's CA certificate (PEM), as text; null when the centre's certificate is publicly signed. */
    ca: FileText.nullable(),
  })
  .strict());
export type ChainLinkRequest = z.infer<ReturnType<typeof chainLinkRequestSchema>>;
export type ChainField = keyof ChainLinkRequest;

const JWT_BLOCK = /-{3,}BEGIN NATS USER JWT-{3,}\s*([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*-{3,}END NATS USER JWT-{3,}/;
const SEED_BLOCK = /-{3,}BEGIN USER NKEY SEED-{3,}\s*(SU[A-Z2-7]{56})\s*-{3,}END USER NKEY SEED-{3,}/;
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** The user JWT and nkey seed of a credentials file, or null when the text is not one. */
export function credentialsParts(text: string): { jwt: string; seed: string } | null {
  const jwt = JWT_BLOCK.exec(text)?.[1];
  const seed = SEED_BLOCK.exec(text)?.[1];
  if (!jwt || !seed) return null;
  try {
    // A user JWT names a user (U...) as its subject; anything else is another kind of file.
    const body = jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(body.padEnd(Math.ceil(body.length / 4) * 4, '='))) as { sub?: unknown };
    if (typeof claims.sub !== 'string' || !claims.sub.startsWith('U')) return null;
  } catch {
    return null;
  }
  return { jwt, seed };
}

/** Every field's problem, as a code (none: an empty object). `training`: the environment, decided by the main side. */
export function chainFieldErrors(input: unknown, training: boolean): Partial<Record<ChainField | 'request', string>> {
  const errors: Partial<Record<ChainField | 'request', string>> = {};
  const parsed = chainLinkRequestSchema().safeParse(input);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = (issue.path[0] as ChainField | undefined) ?? 'request';
      errors[field] ??= issue.message in CHAIN_FIELD_WORDS ? issue.message : 'request';
    }
  // Every field is said at once: the fields the schema passed are checked for their content too.
  const r = (input ?? {}) as Partial<Record<ChainField, unknown>>;
  if (!errors.url && typeof r.url === 'string' && !training && !r.url.trim().startsWith('tls://')) errors.url = 'urlTls';
  if (!errors.credentials) {
    if (r.credentials === null || r.credentials === undefined) {
      if (!training) errors.credentials = 'credsMissing';
    } else if (typeof r.credentials === 'string' && !credentialsParts(r.credentials)) errors.credentials = 'credsForm';
  }
  if (!errors.ca && typeof r.ca === 'string' && !PEM_CERT.test(r.ca)) errors.ca = 'caForm';
  return errors;
}

/** The field codes in English, for the main side's answer and logs (the screens use the locale files). */
export const CHAIN_FIELD_WORDS: Record<string, string> = {
  storeIdEmpty: 'Enter the store’s id as the chain gave it.',
  storeIdLong: 'The store id is at most 64 characters.',
  storeIdChars: 'The store id may hold letters, digits, - and _ only (no spaces or dots).',
  urlEmpty: 'Enter the chain’s central address, like tls://leaf.chain.example:7422.',
  urlForm: 'The central address must look like tls://host:7422.',
  urlTls: 'Outside training the link must use TLS: the address starts with tls://.',
  credsMissing: 'Choose the store’s credentials file (.creds) from the chain.',
  credsForm: 'This file is not a NATS credentials file: it needs a user JWT and a user nkey seed.',
  caForm: 'This file is not a certificate: choose the chain’s CA certificate (PEM).',
  fileLarge: 'The file is too large to be a credentials or certificate file.',
  request: 'The link request was not valid.',
};

/** Where the leaf link stands. */
export const ChainLinkStateSchema = z.enum([
  /** No chain: the store stands alone, as before. */
  'none',
  /** Linked in the settings; the centre has not answered yet. */
  'connecting',
  /** Connected to the centre. */
  'linked',
  /** The centre refused the link: its credentials or certificate. */
  'refused',
  /** Was linked; the link is down since `since`. */
  'cut',
]);
export type ChainLinkState = z.infer<typeof ChainLinkStateSchema>;

export const chainStatusSchema = builtOnce(() => z.object({
  /** This PC's part: the hub PC links; a counter only shows what the hub says. */
  role: z.enum(['hub', 'counter', 'none']),
  state: ChainLinkStateSchema,
  storeId: z.string().max(64).nullable(),
  /** The centre's host:port (never a credential). */
  centre: z.string().max(300).nullable(),
  /** When the state began (epoch ms, the hub PC's clock). */
  since: z.number().nullable(),
  /** What refused the link. */
  refusedBy: z.enum(['credentials', 'certificate', 'other']).nullable(),
  /** nats-server's own words for the last failure (no secrets: it never prints the seed). */
  detail: z.string().max(400).nullable(),
  /** Training: a practice centre on this PC, plain connections allowed. */
  training: z.boolean(),
  /** Whether a credentials file / CA certificate is saved (their contents never leave the main process). */
  hasCredentials: z.boolean(),
  hasCa: z.boolean(),
  /** Why the state cannot be read (a counter that cannot reach the hub), or null. */
  problem: z.string().max(400).nullable(),
}));
export type ChainStatus = z.infer<ReturnType<typeof chainStatusSchema>>;

/** Nothing linked, nothing wrong. */
export const NO_CHAIN: ChainStatus = {
  role: 'none',
  state: 'none',
  storeId: null,
  centre: null,
  since: null,
  refusedBy: null,
  detail: null,
  training: false,
  hasCredentials: false,
  hasCa: false,
  problem: null,
};

/** The state in one line of English for doctor, the bundle and `packdesk run` (the screens word it per language). */
export function chainLine(status: ChainStatus): string {
  const at = (ms: number | null): string => (ms === null ? '' : ` since ${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`);
  const store = status.storeId ? ` as ${status.storeId}` : '';
  const problem = status.problem ? ` (${status.problem})` : '';
  switch (status.state) {
    case 'none':
      return `not linked to a chain${problem}`;
    case 'connecting':
      return `linking${store} to ${status.centre ?? '?'}: the centre has not answered yet${at(status.since)}${status.detail ? ` (${status.detail})` : ''}`;
    case 'linked':
      return `linked${store} to ${status.centre ?? '?'}${at(status.since)}`;
    case 'refused':
      return `refused by ${status.centre ?? '?'}: ${status.refusedBy === 'credentials' ? 'bad credentials' : status.refusedBy === 'certificate' ? 'certificate not trusted' : 'the centre said no'}${at(status.since)}${status.detail ? ` (${status.detail})` : ''}`;
    case 'cut':
      return `link to ${status.centre ?? '?'} cut${at(status.since)}${status.detail ? ` (${status.detail})` : ''}`;
  }
}

/** Whether the chain line is fine: no chain, or linked. */
export function chainOk(status: ChainStatus): boolean {
  return status.problem === null && (status.state === 'none' || status.state === 'linked');
}
