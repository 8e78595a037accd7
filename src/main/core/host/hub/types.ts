/**
 * The store hub as the host runs it, in words: what the host gives the link (HubLinkDeps), what it
 * answers (HubLink), and what its parts share while an engine runs (LinkContext). The parts: the
 * link itself (index.ts), the member's session (session.ts), membership (membership.ts), the chain
 * (chain.ts), and the hub's facts over order views (overlay.ts).
 */
import type { ChainStatus } from '../../../../shared/chain';
import type { Claim, HubStatus } from '../../../../shared/hub';
import type { Environment, HubJoin, OrderSummary, OrderView, ShiftReport } from '../../../../shared/ipc';
import type { ActionInput } from '../../../../shared/protocol';
import { fail, type Result } from '../../../../shared/result';
import type { Engine, ServiceEngine } from '../../engine';
import type { HubConfig } from '../../hub/hub-config';
import type { MembershipPlace } from '../../hub/membership';
import type { HubSession } from '../../hub/ports';
import type { HubSecretStore, HubSupervisor } from '../../hub/server';
import type { ChainMonitor } from '../../hub/chain/monitor';
import type { StoreSettingValues } from '../../hub/store-settings';
import type { Logger } from '../../log';
import type { TapHubContext } from '../../outbox';
import type { TaughtCodesSharing } from '../../packing';
import type { StaffSharing } from '../../staff';
import type { HostListener } from '../events';
import type { StoreSettingsPort } from './store-word';

export interface HubLinkDeps {
  readonly terminalId: string;
  readonly version: string;
  readonly emit: HostListener;
  readonly log: Logger;
  readonly now: () => number;
  /** `PACKDESK_NATS_SERVER`, when set. */
  readonly explicitProgram?: string;
  /** The installed app's resources folder (Electron's process.resourcesPath), when packaged. */
  readonly resourcesPath?: string;
  /** A claim's quiet period (settings). */
  readonly claimQuietMs?: () => number;
  /**
   * The queue's rows, kept by the host while nothing changes (queueRows.ts): what the hub reads of
   * every order (which have bodies, the store's summary) without listing them again each time.
   * Absent (`packdesk run`, no queue): listed from the engine when asked.
   */
  readonly rows?: () => readonly OrderSummary[];
  /** Where the store's secret is kept, by environment (default: the keychain; training hubs in memory for the run). */
  readonly secrets?: (environment: Environment) => HubSecretStore;
  /** This counter's settings, for those that are the store's (scan to pack, claims' quiet period); absent: not shared. */
  readonly storeSettings?: StoreSettingsPort;
  /** Tests: how soon a silent hub counts as away, and the lease's timing. */
  readonly tuning?: { readonly awayAfterMs?: number; readonly lease?: { readonly leaseMs?: number; readonly renewMs?: number } };
}

/** Where the running engine is: the hub belongs to its environment's data folder. */
export interface EnginePlace {
  readonly environment: Environment;
  readonly dataDir: string;
}

export interface HubLink {
  /** An engine started: start the hub (on the hub PC) and this counter's session over it. */
  attach(service: ServiceEngine, place: EnginePlace): void;
  /** The engine is closing: close the session (handing the lease over) and stop the hub process. */
  detach(): Promise<void>;
  status(): HubStatus;
  /** An order view with the hub's facts laid over it: the one read path (overlay.ts). */
  decorate(view: OrderView): OrderView;
  /** What the facts over every row at once hang on (overlay.ts's overlayWord): the queue lists again when it changes. */
  overlayWord(): string;
  /**
   * Before this counter's tap on an order: claims it; refused in words when another counter has it.
   * With a hub, what the tap's record keeps: whether other counters could be checked (null: no hub).
   */
  beforeTap(orderId: string, input: ActionInput): Promise<Result<TapHubContext | null>>;
  /** A person settled who keeps an order packed twice while the counters were apart. */
  settleConflict(orderId: string, keeperId: string): Result<true>;
  /** A person at a counter that did not keep an order packed twice put its items back. */
  putBack(orderId: string): Result<true>;
  /** A manager changed settings here: those that are the store's go to every counter. */
  storeSettingsChanged(patch: Partial<StoreSettingValues>): void;
  takeOver(orderId: string): Promise<Result<Claim>>;
  create(name: string | null, listen?: string): Promise<Result<HubJoin>>;
  joinCode(): Promise<Result<HubJoin>>;
  join(code: string, name: string | null): Promise<Result<HubStatus>>;
  leave(): Promise<Result<true>>;
  /** Settings -> Chain: the link to the chain's centre as this PC knows it (the hub PC's own, or what the hub says). */
  chainStatus(): Promise<ChainStatus>;
  /** Links the store hub to the chain (on the hub PC only): files written, the hub's server restarted. */
  linkChain(request: unknown): Promise<Result<ChainStatus>>;
  /** Unlinks the store hub: the link's files removed, the hub's server restarted without it. */
  unlinkChain(): Promise<Result<ChainStatus>>;
  /**
   * The engine's ports for the staff list and taught barcodes (given to it when it is made, before
   * any hub is bound): what a manager or packer changes here goes to the other counters while the
   * hub answers, and is merged again from SQLite when it comes back.
   */
  readonly sharing: { readonly staffSharing: StaffSharing; readonly taughtSharing: TaughtCodesSharing };
  /** A day's shift as the Shift screen shows it: the store's, saying since when other counters' taps may be missing. */
  shift(engine: Engine, day: string): ShiftReport;
}

/** The engine the hub is bound to. */
export interface Engaged {
  readonly service: ServiceEngine;
  readonly place: EnginePlace;
  readonly secrets: HubSecretStore;
}

/** This PC's part in a hub while an engine runs: absent for a one-counter store. */
export interface Member {
  readonly config: HubConfig;
  readonly session: HubSession;
  readonly supervisor: HubSupervisor | null;
  /** On the hub PC of a store in a chain: the leaf link watched. */
  readonly chain: ChainMonitor | null;
  readonly unsubscribes: (() => void)[];
}

/** What the link's parts share: the engine and membership as they are now, and the link's own steps. */
export interface LinkContext {
  readonly deps: HubLinkDeps;
  readonly log: Logger;
  engaged(): Engaged | null;
  member(): Member | null;
  status(): HubStatus;
  placeOf(e: Engaged): MembershipPlace;
  /** Ends this PC's part in the hub, one step at a time with binding (the lease handed over first). */
  partSerially(): Promise<void>;
  /** Membership changed while the engine runs: part, then join again as the files now say. */
  rejoin(): Promise<void>;
}

/** Refused while no engine runs (the terminal starting, or switching environment). */
export const noEngine = (): Result<never> => fail('transient', 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
