/**
 * What every domain's handlers share: the host's parts they are built over (HandlerDeps), the
 * type that holds a domain's handlers to its commands, and the few steps many of them take (the
 * engine or why there is none, the manager PIN first, "done").
 */
import type { AppInfo, CommandName, CsvSaved, ShiftCsvTable, ShiftCsvWords, SyncStatus } from '../../../../shared/ipc';
import { fail, ok, type Problem, type Result } from '../../../../shared/result';
import type { Engine } from '../../engine';
import type { Logger } from '../../log';
import type { PinStore } from '../../pin';
import type { PrintPort } from '../../print';
import type { SettingsStore } from '../../settings';
import type { Handler } from '../dispatch';
import type { HostListener } from '../events';
import type { Runtime } from '../runtime';
import type { HubLink } from '../hub';
import type { QueueRows } from '../queueRows';
import type { CredentialsAnswer, CredentialsRequest } from '../credentials';
import type { UpdateController } from '../types';

export interface HandlerDeps {
  readonly runtime: Runtime;
  /** The store hub: views with other counters' word, claims before taps, Settings -> Counters. */
  readonly hub: HubLink;
  readonly settings: SettingsStore;
  readonly pins: PinStore | null;
  /** Why the PIN store could not be opened, or null. */
  readonly pinProblem: Problem | null;
  /** app.info, once the keychain check had a moment to answer. */
  readonly info: () => Promise<AppInfo>;
  readonly updates: UpdateController | undefined;
  readonly kiosk: { leave(): void } | undefined;
  /** Absent (browser harness): the page prints through the browser's own dialog. */
  readonly printing: PrintPort | undefined;
  readonly version: string;
  readonly shell: 'electron' | 'web';
  readonly saveCredentials: (request: CredentialsRequest) => Promise<Result<CredentialsAnswer>>;
  readonly exportBundle: () => Promise<Result<{ path: string }>>;
  /** Writes a day's shift as CSV where the manager finds it; answers the file's path. */
  readonly exportShiftCsv: (day: string, table: ShiftCsvTable, words: ShiftCsvWords) => Promise<Result<CsvSaved>>;
  /** Today's local day (YYYY-MM-DD), on the host's clock. */
  readonly today: () => string;
  /** The queue's rows for orders.head and orders.list (kept while nothing changes; listed ahead of a page's first ask, when the shell says one is coming). */
  readonly queue: QueueRows;
  readonly log: Logger;
  /** Events to the screens (the sync bar hears when a manager's save clears the settings problem). */
  readonly emit?: HostListener;
}

/**
 * One handler for every command of a domain (`typeof ordersCommands` ...), and no other: a domain
 * file that leaves one out, or answers one its domain does not have, does not compile.
 */
export type DomainHandlers<Commands> = { readonly [C in keyof Commands & CommandName]: Handler<C> };

/** The steps many handlers take, built once over the host's parts. */
export interface HandlerKit {
  readonly deps: HandlerDeps;
  /** The problem while the engine is not running (starting, or why it failed). */
  noEngine(): Result<never>;
  /** Runs `use` with the engine, or answers why there is none. */
  engineOr<T>(use: (engine: Engine) => Result<T>): Result<T>;
  /** The PIN store's problem, when it could not be opened. */
  pinUnavailable(): Result<never>;
  /** Runs `run` only after the manager PIN checked out. */
  withPin<T>(pin: string | undefined, run: () => Promise<Result<T>> | Result<T>): Promise<Result<T>>;
  /** The sync status a terminal without a running engine shows. */
  statusWithoutEngine(): SyncStatus;
}

export function handlerKit(deps: HandlerDeps): HandlerKit {
  const { runtime, pins, log } = deps;

  const noEngine = (): Result<never> =>
    fail('transient', runtime.problem() ?? 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
  const engineOr = <T>(use: (engine: Engine) => Result<T>): Result<T> => {
    const engine = runtime.engine();
    if (!engine) return noEngine();
    return use(engine);
  };

  const pinUnavailable = (): Result<never> => ({
    ok: false,
    problem: deps.pinProblem ?? { kind: 'permanent', message: 'The manager PIN is unavailable.', code: 'PIN_UNAVAILABLE' },
  });

  const withPin = async <T>(pin: string | undefined, run: () => Promise<Result<T>> | Result<T>): Promise<Result<T>> => {
    if (!pins) return pinUnavailable();
    if (pin === undefined) return fail('auth', 'The manager PIN is needed for this.', 'PIN_REQUIRED');
    const checked = await pins.check(pin);
    if (!checked.ok) {
      log.warn('manager PIN refused', { code: checked.problem.code });
      return checked;
    }
    return run();
  };

  const statusWithoutEngine = (): SyncStatus => ({
    connectivity: 'unknown',
    waiting: 0,
    failed: 0,
    toCheck: 0,
    oldestWaitingAt: null,
    lastSuccessAt: null,
    credentials: 'missing',
    backlogAlarm: false,
    clockSkewMs: null,
    message: runtime.problem(),
  });

  return { deps, noEngine, engineOr, pinUnavailable, withPin, statusWithoutEngine };
}

/** An action that answers only whether it worked, as the contract's `{ done: true }`. */
export function done(r: Result<true>): Result<{ done: true }> {
  return r.ok ? ok({ done: true as const }) : r;
}
