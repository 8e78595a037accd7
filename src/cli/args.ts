/**
 * Command-line parsing: argv is outside input, so every word goes through a schema, and anything
 * that does not fit is a usage error (exit 2) with the usage text.
 */
import { z } from 'zod';
import { type ActionInput, FULFILLMENT_STATES, idFault, ORDER_STATES, OrderIdSchema } from '../shared/protocol';
import { fail, ok, type Result } from '../shared/result';
import type { HubCommand } from './hub';
import { DEFAULT_HUB_PORT } from '../main/core/hub/membership';

/** Flags that take a value (`--flag value` or `--flag=value`). */
const VALUE_FLAGS = ['data-dir', 'auth-url', 'base-url', 'environment', 'terminal-id', 'timeout', 'limit', 'service-provider-id', 'listen', 'name'] as const;
/** Flags that are switches. */
const SWITCHES = ['json', 'no-undo', 'until-empty', 'all', 'verbose', 'help', 'once'] as const;

type ValueFlag = (typeof VALUE_FLAGS)[number];
type Switch = (typeof SWITCHES)[number];

export interface Parsed {
  readonly positionals: readonly string[];
  readonly values: Partial<Record<ValueFlag, string>>;
  readonly switches: ReadonlySet<Switch>;
}

/** Splits argv into positionals, valued flags and switches; unknown flags are refused. */
export function splitArgs(argv: readonly string[]): Result<Parsed> {
  const positionals: string[] = [];
  const values: Partial<Record<ValueFlag, string>> = {};
  const switches = new Set<Switch>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (word === '-h') {
      switches.add('help');
      continue;
    }
    if (!word.startsWith('--') || word === '--') {
      positionals.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const name = word.slice(2, eq === -1 ? undefined : eq);
    if ((VALUE_FLAGS as readonly string[]).includes(name)) {
      const value = eq === -1 ? argv[++i] : word.slice(eq + 1);
      if (value === undefined || value === '') return fail('invalid', `--${name} needs a value`, 'USAGE');
      values[name as ValueFlag] = value;
    } else if ((SWITCHES as readonly string[]).includes(name)) {
      if (eq !== -1) return fail('invalid', `--${name} takes no value`, 'USAGE');
      switches.add(name as Switch);
    } else {
      return fail('invalid', `Unknown option --${name}`, 'USAGE');
    }
  }
  return ok({ positionals, values, switches });
}

const EntryId = z.coerce.number().int().positive();
// Ids from a shell go through the same check as a scan: nothing invisible or broken gets in.
const Word = z
  .string()
  .trim()
  .min(1)
  .superRefine((value, ctx) => {
    const fault = idFault(value);
    if (fault) ctx.addIssue({ code: 'custom', message: fault });
  });
// An order id from a shell: trimmed, then the one id rule every boundary applies (OrderIdSchema).
const OrderIdArg = z.string().trim().pipe(OrderIdSchema);
const Units = z
  .string()
  .regex(/^-?\d+$/, 'UNITS must be a whole number')
  .transform((s) => Number.parseInt(s, 10));
const Seconds = z.coerce.number().positive().max(24 * 3600);
const normalised = z.string().transform((s) => s.trim().toUpperCase().replace(/-/g, '_'));
const FulfilmentStateArg = normalised.pipe(z.enum(FULFILLMENT_STATES));
const OrderStateArg = normalised.pipe(z.enum(ORDER_STATES));

/** One command the CLI can run, typed. */
export type Command =
  | { readonly name: 'help' }
  | { readonly name: 'enqueue'; readonly orderId: string; readonly input: EnqueueInput; readonly noUndo: boolean; readonly json: boolean }
  | { readonly name: 'outbox'; readonly json: boolean; readonly all: boolean; readonly limit: number }
  | { readonly name: 'retry' | 'discard'; readonly entryId: number }
  | { readonly name: 'drain'; readonly untilEmpty: boolean; readonly timeoutMs: number; readonly json: boolean }
  | { readonly name: 'orders'; readonly json: boolean }
  | { readonly name: 'order'; readonly orderId: string; readonly json: boolean }
  | { readonly name: 'doctor'; readonly json: boolean }
  | { readonly name: 'intake'; readonly json: boolean }
  | { readonly name: 'fetch'; readonly orderId: string; readonly json: boolean }
  | { readonly name: 'run'; readonly json: boolean }
  | { readonly name: 'claim'; readonly orderId: string; readonly json: boolean }
  | { readonly name: 'release'; readonly orderId: string; readonly json: boolean }
  | HubCommand;

export type EnqueueInput = ActionInput;

const DEFAULT_DRAIN_TIMEOUT_S = 60;

function usage(message: string): Result<never> {
  return fail('invalid', message, 'USAGE');
}

function exactly<T>(args: readonly string[], count: number, what: string, parse: (args: readonly string[]) => T): Result<T> {
  if (args.length !== count) return usage(`${what} needs ${count} argument${count === 1 ? '' : 's'}, got ${args.length}`);
  return ok(parse(args));
}

function checked<T>(schema: z.ZodType<T>, value: unknown, what: string): Result<T> {
  const r = schema.safeParse(value);
  return r.success ? ok(r.data) : usage(`${what}: ${r.error.issues[0]?.message ?? 'invalid'}`);
}

/** Turns argv into a Command, or a usage problem. */
export function parseCommand(argv: readonly string[]): Result<{ command: Command; flags: Parsed }> {
  const split = splitArgs(argv);
  if (!split.ok) return split;
  const flags = split.value;
  const [name, ...rest] = flags.positionals;
  const json = flags.switches.has('json');
  const done = (command: Command) => ok({ command, flags });
  if (flags.switches.has('help') || name === undefined || name === 'help') return done({ name: 'help' });

  switch (name) {
    case 'enqueue': {
      const [kind, ...args] = rest;
      const noUndo = flags.switches.has('no-undo');
      const queued = (orderId: unknown, input: Result<EnqueueInput>) => {
        const id = checked(OrderIdArg, orderId, 'ORDER_ID');
        if (!id.ok) return id;
        if (!input.ok) return input;
        return done({ name: 'enqueue', orderId: id.value, input: input.value, noUndo, json });
      };
      switch (kind) {
        case 'fulfilment': {
          if (args.length !== 3) return usage(`enqueue fulfilment needs ORDER_ID FULFILMENT_ID STATE`);
          const state = checked(FulfilmentStateArg, args[2], `STATE (one of ${FULFILLMENT_STATES.join(', ')})`);
          const fid = checked(Word, args[1], 'FULFILMENT_ID');
          if (!state.ok) return state;
          if (!fid.ok) return fid;
          return queued(args[0], ok({ kind: 'fulfilment', fulfilmentId: fid.value, state: state.value }));
        }
        case 'units': {
          if (args.length !== 4) return usage('enqueue units needs ORDER_ID ITEM_ID UNITS REASON');
          const units = checked(Units, args[2], 'UNITS');
          const item = checked(Word, args[1], 'ITEM_ID');
          const reason = checked(Word, args[3], 'REASON');
          if (!units.ok) return units;
          if (!item.ok) return item;
          if (!reason.ok) return reason;
          return queued(args[0], ok({ kind: 'units', itemId: item.value, units: units.value, reason: reason.value.toUpperCase() }));
        }
        case 'order-state': {
          if (args.length !== 2 && args.length !== 3) return usage('enqueue order-state needs ORDER_ID STATE [REASON]');
          const state = checked(OrderStateArg, args[1], `STATE (one of ${ORDER_STATES.join(', ')})`);
          if (!state.ok) return state;
          const reason = args[2]?.trim().toUpperCase();
          const input: EnqueueInput = {
            kind: 'orderState',
            state: state.value,
            ...(reason ? { reason } : {}),
          };
          return queued(args[0], ok(input));
        }
        case 'invoice': {
          if (args.length !== 2) return usage('enqueue invoice needs ORDER_ID SELLER_INVOICE_ID');
          const invoice = checked(Word, args[1], 'SELLER_INVOICE_ID');
          if (!invoice.ok) return invoice;
          return queued(args[0], ok({ kind: 'invoice', sellerInvoiceId: invoice.value }));
        }
        default:
          return usage(kind === undefined ? 'enqueue needs a kind: fulfilment, units, order-state or invoice' : `Unknown kind "${kind}" for enqueue`);
      }
    }
    case 'outbox': {
      if (rest.length > 0) return usage('outbox takes no arguments');
      const limit = checked(z.coerce.number().int().min(1).max(100_000), flags.values.limit ?? '500', '--limit');
      if (!limit.ok) return limit;
      return done({ name: 'outbox', json, all: flags.switches.has('all'), limit: limit.value });
    }
    case 'retry':
    case 'discard': {
      const r = exactly(rest, 1, name, (a) => a[0]);
      if (!r.ok) return r;
      const id = checked(EntryId, r.value, 'ENTRY_ID');
      if (!id.ok) return id;
      return done({ name, entryId: id.value });
    }
    case 'drain': {
      if (rest.length > 0) return usage('drain takes no arguments');
      const seconds = checked(Seconds, flags.values.timeout ?? String(DEFAULT_DRAIN_TIMEOUT_S), '--timeout (seconds)');
      if (!seconds.ok) return seconds;
      return done({ name: 'drain', untilEmpty: flags.switches.has('until-empty'), timeoutMs: Math.round(seconds.value * 1000), json });
    }
    case 'orders':
      if (rest.length > 0) return usage('orders takes no arguments');
      return done({ name: 'orders', json });
    case 'order': {
      const r = exactly(rest, 1, 'order', (a) => a[0]);
      if (!r.ok) return r;
      const id = checked(OrderIdArg, r.value, 'ORDER_ID');
      if (!id.ok) return id;
      return done({ name: 'order', orderId: id.value, json });
    }
    case 'doctor':
      if (rest.length > 0) return usage('doctor takes no arguments');
      return done({ name: 'doctor', json });
    case 'intake':
      if (rest.length > 0) return usage('intake takes no arguments');
      // Polling on a timer is the app's job; from a shell, one pass and out.
      if (!flags.switches.has('once')) return usage('intake runs one pass from the stored cursor: pass --once');
      return done({ name: 'intake', json });
    case 'fetch': {
      const r = exactly(rest, 1, 'fetch', (a) => a[0]);
      if (!r.ok) return r;
      const id = checked(OrderIdArg, r.value, 'ORDER_ID');
      if (!id.ok) return id;
      return done({ name: 'fetch', orderId: id.value, json });
    }
    case 'run':
      if (rest.length > 0) return usage('run takes no arguments');
      return done({ name: 'run', json });
    case 'claim':
    case 'release': {
      const r = exactly(rest, 1, name, (a) => a[0]);
      if (!r.ok) return r;
      const id = checked(OrderIdArg, r.value, 'ORDER_ID');
      if (!id.ok) return id;
      return done(name === 'claim' ? { name, orderId: id.value, json } : { name, orderId: id.value, json });
    }
    case 'hub': {
      const [action, ...args] = rest;
      const counterName = flags.values.name?.trim() || null;
      switch (action) {
        case 'create':
          if (args.length > 0) return usage('hub create takes no arguments (--listen HOST:PORT, --name NAME)');
          return done({ name: 'hub', action, listen: flags.values.listen ?? `0.0.0.0:${DEFAULT_HUB_PORT}`, counterName, json });
        case 'join':
          // A code typed with spaces between its groups arrives as several words.
          if (args.length === 0) return usage('hub join needs the join code (printed by `packdesk hub create` on the hub PC)');
          return done({ name: 'hub', action, code: args.join(' '), counterName, json });
        case 'leave':
        case 'status':
          if (args.length > 0) return usage(`hub ${action} takes no arguments`);
          return done({ name: 'hub', action, json });
        default:
          return usage(action === undefined ? 'hub needs create, join, leave or status' : `Unknown hub command "${action}"`);
      }
    }
    default:
      return usage(`Unknown command "${name}"`);
  }
}
