/** The packdesk CLI, as a function of argv and environment to an exit code (packdesk.ts runs it). */
import { readHubStatus } from '../main/core/hub/read-status';
import type { OrderServiceClient, UpdateOutcome, UpdateSender } from '../main/core/api';
import type { TokenManager } from '../main/core/auth';
import { createEngine, type Engine, openEngineWithService, openServiceParts } from '../main/core/engine';
import type { ServiceClock } from '../main/core/time/service-clock';
import type { PendingId } from '../main/core/db';
import type { Intake } from '../main/core/intake';
import { createLogger, type Logger, silentLogger, stderrSink } from '../main/core/log';
import { printableText } from '../shared/protocol/orderId';
import { ProblemError } from '../shared/result';
import { type Command, parseCommand } from './args';
import { type CliConfig, type Env, resolveConfig, vaultFor } from './config';
import { chainCheck, formatChecks, hubCheck, lookAtChain, lookAtHub, runDoctor } from './doctor';
import { formatOrder, formatOrders, formatOutbox, formatStatus } from './format';
import { claimsFor, orderClaim, runClaim } from './claim';
import { runHub } from './hub';
import { runCounter } from './run';
import { EXIT, USAGE } from './usage';

export interface CliIo {
  readonly env: Env;
  write(text: string): void;
  writeError(text: string): void;
}

const DEFAULT_UNDO_MS = 5000;

/** Runs one command; resolves with the exit code. */
export async function runCli(argv: readonly string[], raw: CliIo): Promise<number> {
  // Names, ids and messages come from the service and the data file: a control or direction
  // character in them must be shown, never acted on by the terminal.
  const io: CliIo = { env: raw.env, write: (t) => raw.write(printableText(t)), writeError: (t) => raw.writeError(printableText(t)) };
  const parsed = parseCommand(argv);
  if (!parsed.ok) {
    io.writeError(`packdesk: ${parsed.problem.message}\n\n${USAGE}`);
    return EXIT.USAGE;
  }
  const { command, flags } = parsed.value;
  if (command.name === 'help') {
    io.write(USAGE);
    return EXIT.OK;
  }
  const config = resolveConfig(flags, io.env);
  if (!config.ok) {
    io.writeError(`packdesk: ${config.problem.message}\n`);
    return EXIT.CONFIG;
  }
  if (config.value.strayDataFile)
    io.writeError(`packdesk: warning: ${config.value.strayDataFile} is not the app's data file (an older packdesk made it beside environments/); this uses ${config.value.dataDir}\n`);
  if (command.name === 'hub') return runHub(command, config.value, io, { readStatus: (nc, self) => readHubStatus(nc, self) });
  if (command.name === 'claim' || command.name === 'release') return runClaim(command.name, command.orderId, command.json, config.value, io);
  const log = flags.switches.has('verbose') ? createLogger([stderrSink], { minLevel: 'info' }) : silentLogger;
  if (command.name === 'run') return runCounter(config.value, io, log, command.json);
  return withEngine(command, config.value, io, log);
}

/** Answers every call with "not configured": local commands never send, so it is only a guard. */
const unconfiguredSender: UpdateSender = {
  update: async (): Promise<UpdateOutcome> => ({
    kind: 'transient',
    message: 'The order service address is not set (PACKDESK_BASE_URL, PACKDESK_AUTH_URL)',
    noAnswer: false,
  }),
  probe: async () => false,
};

async function withEngine(command: Exclude<Command, { name: 'help' | 'hub' | 'run' | 'claim' | 'release' }>, config: CliConfig, io: CliIo, log: Logger): Promise<number> {
  const reads = command.name === 'intake' || command.name === 'fetch';
  const needsService = command.name === 'drain' || command.name === 'doctor' || reads;
  if ((command.name === 'drain' || reads) && (!config.authUrl || !config.baseUrl)) {
    io.writeError(`packdesk: ${command.name} needs the service addresses: set PACKDESK_AUTH_URL and PACKDESK_BASE_URL (or --auth-url, --base-url)\n`);
    return EXIT.CONFIG;
  }
  if (command.name === 'intake' && !config.serviceProviderId) {
    io.writeError('packdesk: intake needs the store\'s service provider id: set PACKDESK_SERVICE_PROVIDER_ID or pass --service-provider-id ID\n');
    return EXIT.CONFIG;
  }
  const vault = vaultFor(config, io.env);
  const undoWindowMs = command.name === 'enqueue' && command.noUndo ? 0 : DEFAULT_UNDO_MS;
  let engine: Engine | null = null;
  let tokens: TokenManager | null = null;
  let client: OrderServiceClient | null = null;
  let intake: Intake | null = null;
  let clock: ServiceClock | null = null;
  let close: () => Promise<void> = async () => undefined;
  let engineProblem: string | null = null;
  try {
    if (config.authUrl && config.baseUrl) {
      const opened = openEngineWithService({
        dataDir: config.dataDir,
        authUrl: config.authUrl,
        baseUrl: config.baseUrl,
        vault,
        terminalId: config.terminalId,
        log,
        undoWindowMs,
        // A short-lived process: no refresh timers ahead of expiry.
        proactiveRefresh: false,
        serviceProviderId: () => config.serviceProviderId,
      });
      ({ engine, tokens, client, intake, clock } = opened);
      close = () => opened.close();
    } else {
      const local = createEngine({ dataDir: config.dataDir, sender: unconfiguredSender, terminalId: config.terminalId, log, undoWindowMs });
      engine = local;
      close = () => local.stop();
    }
  } catch (e) {
    engineProblem = e instanceof ProblemError ? e.problem.message : e instanceof Error ? e.message : String(e);
    if (command.name !== 'doctor') return cannotOpen(e, io);
    // Doctor still checks the token server and the order service: they need no data file, and
    // "no token server address" would send support after the wrong fault.
    if (config.authUrl && config.baseUrl) {
      const parts = openServiceParts({ authUrl: config.authUrl, baseUrl: config.baseUrl, vault, log, proactiveRefresh: false });
      ({ tokens, client, clock } = parts);
      close = () => parts.tokens.close();
    }
  }
  try {
    if (engine && !needsService) warnIfReplaced(engine, io);
    switch (command.name) {
      case 'doctor': {
        const checks = await runDoctor({ config, engine, engineProblem, vault, tokens, client, intake, clock });
        checks.push(hubCheck(await lookAtHub(config, io.env)));
        const chain = await lookAtChain(config);
        if (chain) checks.push(chainCheck(chain));
        io.write(command.json ? `${JSON.stringify(checks, null, 2)}\n` : formatChecks(checks));
        return checks.every((c) => c.ok) ? EXIT.OK : EXIT.REFUSED;
      }
      case 'intake':
      case 'fetch':
        if (!engine || !intake) return EXIT.DATA_FILE;
        return await runRead(command, engine, intake, io);
      default:
        if (!engine) return EXIT.DATA_FILE;
        return await run(command, engine, io, config);
    }
  } finally {
    await close();
  }
}

/** A Retry-After longer than a pass waits out, in words: when to run it again. */
function waitSaid(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const span = seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} minutes`;
  return `the order service asked for no more calls for ${span}: run intake --once again after that; it resumes at the page it stopped at`;
}

/** The data file could not be opened: a full disk is exit 6 in its own words, anything else exit 5. */
export function cannotOpen(e: unknown, io: CliIo): number {
  if (e instanceof ProblemError && e.problem.code === 'STORE_FULL') {
    io.writeError(`packdesk: ${e.problem.message}\n`);
    return EXIT.STORAGE;
  }
  io.writeError(`packdesk: the data file cannot be used: ${e instanceof ProblemError ? e.problem.message : e instanceof Error ? e.message : String(e)}\n`);
  return EXIT.DATA_FILE;
}

/** The ids still to fetch, or none when the data file cannot say (the report has said why). */
function readStillToFetch(intake: Intake): readonly PendingId[] {
  try {
    return intake.stillToFetch();
  } catch {
    return [];
  }
}

/** A data file set aside at this very start must never pass unnoticed. */
function warnIfReplaced(engine: Engine, io: CliIo): void {
  const integrity = engine.health().integrity;
  if (integrity !== 'ok') io.writeError(`packdesk: warning: ${integrity}\n`);
}

/** `intake --once` and `fetch`: the read calls, stored like the app stores them. */
async function runRead(command: Extract<Command, { name: 'intake' | 'fetch' }>, engine: Engine, intake: Intake, io: CliIo): Promise<number> {
  const json = (value: unknown): void => io.write(`${JSON.stringify(value, null, 2)}\n`);
  if (command.name === 'intake') {
    // Asked for by hand: the ids still to fetch are asked now, whatever their pause.
    const report = await intake.passOnce({ askAllNow: true });
    const status = intake.status();
    const stillToFetch = readStillToFetch(intake);
    if (command.json) json({ ...report, status, stillToFetch });
    else {
      const c = 'counts' in report ? report.counts : null;
      const counts = c ? `new ${c.new}, updated ${c.updated}, unchanged ${c.unchanged}, failed ${c.failed}${c.unreadable > 0 ? `, could not be read ${c.unreadable}` : ''}\n` : '';
      const said = 'message' in report ? `${report.message}\n` : '';
      const wait = report.kind === 'unreachable' && report.retryAfterMs !== undefined ? `${waitSaid(report.retryAfterMs)}\n` : '';
      const cursor = status.cursorAt !== null ? `cursor ${new Date(status.cursorAt).toISOString()}\n` : 'no complete pass yet\n';
      const pending = stillToFetch.map((p) => `still to fetch ${p.orderId}: ${p.lastError ?? 'not asked yet'}\n`).join('');
      io.write(`${report.kind === 'completed' ? 'pass completed' : `pass not completed (${report.kind})`}\n${counts}${said}${wait}${cursor}${pending}`);
    }
    switch (report.kind) {
      case 'completed':
        return EXIT.OK;
      case 'storage':
        return EXIT.STORAGE;
      case 'unreachable':
        return report.certificate ? EXIT.CERTIFICATE : EXIT.UNREACHABLE;
      case 'noAccess':
      case 'notConfigured':
      case 'auth':
        return EXIT.CONFIG;
      default:
        return EXIT.REFUSED;
    }
  }
  const fetched = await intake.fetchOrder(command.orderId);
  if (fetched.kind !== 'stored') {
    if (command.json) json(fetched);
    else io.writeError(`${command.orderId}: ${fetched.message}\n`);
    if (fetched.kind === 'unreachable') return fetched.certificate ? EXIT.CERTIFICATE : EXIT.UNREACHABLE;
    return fetched.kind === 'storage' ? EXIT.STORAGE : EXIT.REFUSED;
  }
  const view = engine.getOrder(command.orderId);
  if (!view) return EXIT.DATA_FILE;
  if (command.json) json({ ...fetched, order: view });
  else io.write(`${fetched.result}\n${formatOrder(view)}`);
  return EXIT.OK;
}

async function run(command: Exclude<Command, { name: 'help' | 'doctor' | 'intake' | 'fetch' | 'hub' | 'run' | 'claim' | 'release' }>, engine: Engine, io: CliIo, config: CliConfig): Promise<number> {
  const json = (value: unknown): void => io.write(`${JSON.stringify(value, null, 2)}\n`);
  switch (command.name) {
    case 'enqueue': {
      const r = engine.submitTap(command.orderId, command.input);
      if (!r.ok) {
        io.writeError(`refused: ${r.problem.message}${r.problem.code ? ` (${r.problem.code})` : ''}\n`);
        return r.problem.kind === 'invalid' ? EXIT.REFUSED : r.problem.kind === 'storage' ? EXIT.STORAGE : EXIT.DATA_FILE;
      }
      if (command.json) json(r.value);
      else {
        const when = r.value.sendAfter > r.value.createdAt ? `sends after ${new Date(r.value.sendAfter).toISOString()}` : 'due now';
        io.write(`entry ${r.value.id} request ${r.value.requestId}\nqueued: ${r.value.summary} for ${r.value.orderId} (${when})\n`);
      }
      return EXIT.OK;
    }
    case 'outbox': {
      const entries = engine.listOutbox({ includeDone: command.all, limit: command.limit });
      if (command.json) json(entries);
      else io.write(formatOutbox(entries));
      return EXIT.OK;
    }
    case 'retry':
    case 'discard': {
      const r = command.name === 'retry' ? engine.retry(command.entryId) : engine.discard(command.entryId);
      if (!r.ok) {
        io.writeError(`${command.name} refused: ${r.problem.message}${r.problem.code ? ` (${r.problem.code})` : ''}\n`);
        return EXIT.REFUSED;
      }
      io.write(command.name === 'retry' ? `entry ${command.entryId} will be sent again\n` : `entry ${command.entryId} discarded\n`);
      return EXIT.OK;
    }
    case 'drain': {
      engine.start();
      const result = await engine.drain({ untilEmpty: command.untilEmpty, timeoutMs: command.timeoutMs });
      const status = engine.status();
      if (command.json) json({ ...result, status });
      else io.write(`sent ${result.sent}, failed ${result.failed}, remaining ${result.remaining}\n${formatStatus(status)}`);
      // Before the network: a full disk leaves taps "waiting" that the service may already have applied.
      if (engine.storage()) return EXIT.STORAGE;
      if (status.credentials !== 'ok') return EXIT.CONFIG;
      if (status.notice?.code === 'CERTIFICATE' || status.notice?.code === 'SERVICE_CERTIFICATE') return EXIT.CERTIFICATE;
      if (status.connectivity === 'offline') return EXIT.UNREACHABLE;
      if (status.failed > 0 || result.failed > 0) return EXIT.REFUSED;
      if (result.remaining > 0) return EXIT.UNREACHABLE;
      return EXIT.OK;
    }
    case 'orders': {
      const orders = engine.listOrders();
      // Who marked each order packed at this counter (null: nobody signed in, or not packed here), and
      // each order's claim when the hub answers ("unknown" when it does not, or there is no hub).
      const claims = await claimsFor(orders, config);
      if (command.json) json(orders.map((o) => ({ ...o, packer: packerOf(engine, o.id), claim: claims.known ? orderClaim(claims.claims.get(o.id), claims.counterId) : 'unknown' })));
      else {
        io.write(formatOrders(orders));
        // A one-counter store's listing stays as it always was: it has no claims to be unknown.
        if (claims.known) for (const [id, c] of claims.claims) io.write(`${id}: being packed at ${c.counterName} since ${new Date(c.claimedAt).toISOString()}, until ${new Date(c.expiresAt).toISOString()}\n`);
        else if (claims.inHub) io.write(`claims unknown: ${claims.why}\n`);
      }
      return EXIT.OK;
    }
    case 'order': {
      const view = engine.getOrder(command.orderId);
      if (!view) {
        io.writeError(`Order ${command.orderId} is not on this terminal\n`);
        return EXIT.REFUSED;
      }
      if (command.json) json({ ...view, packer: packerOf(engine, view.id) });
      else io.write(formatOrder(view));
      return EXIT.OK;
    }
  }
}

/** The packer of an order's PACKED tap at this counter, or null. */
function packerOf(engine: Engine, orderId: string): string | null {
  const state = engine.packState(orderId);
  return state.ok ? state.value.packedBy : null;
}
