/**
 * `packdesk run`: a headless counter in the foreground until SIGTERM or SIGINT. It opens the engine
 * over the order service and binds the store hub to it exactly as the app does (createHubLink): on
 * the hub PC the hub process, on every member counter the session (intake polls only when the
 * session says so), sending, presence. A one-counter data folder takes in orders and sends as the
 * app does. One line is printed per change of the hub's mode and of who takes in orders.
 */
import { openEngineWithService } from '../main/core/engine';
import { createHubLink } from '../main/core/host/hub';
import { loadHubConfig } from '../main/core/hub/hub-config';
import { keychainHubSecrets, type HubSecretStore } from '../main/core/hub/server';
import { hubLine, intakeWords } from '../main/core/hub/status-line';
import type { Logger } from '../main/core/log';
import { type HubStatus, hubStatusSchema } from '../shared/hub';
import type { Environment } from '../shared/ipc';
import type { CliConfig } from './config';
import { vaultFor } from './config';
import { cannotOpen, type CliIo } from './io';
import { EXIT } from './usage';

export interface RunDeps {
  /** Resolves when the counter should stop (default: the first SIGTERM or SIGINT). */
  readonly stopped?: Promise<unknown>;
  readonly secrets?: (environment: Environment) => HubSecretStore;
  readonly now?: () => number;
}

/** The first SIGTERM or SIGINT. */
function signalled(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      resolve(signal);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
  });
}

/** Runs the counter until stopped; resolves with the exit code. */
export async function runCounter(config: CliConfig, io: CliIo, log: Logger, json: boolean, deps: RunDeps = {}): Promise<number> {
  if (!config.authUrl || !config.baseUrl) {
    io.writeError('packdesk: run needs the service addresses: set PACKDESK_AUTH_URL and PACKDESK_BASE_URL (or --auth-url, --base-url)\n');
    return EXIT.CONFIG;
  }
  const stopped = deps.stopped ?? signalled();
  const now = deps.now ?? Date.now;
  const say = (status: HubStatus, event: string): void => {
    const at = new Date(now()).toISOString();
    if (json) io.write(`${JSON.stringify({ at, event, intake: intakeWords(status), status: hubStatusSchema().parse(status) })}\n`);
    else io.write(`${at} ${event}: ${hubLine(status)}\n`);
  };
  let said = '';
  /** One line per change of mode or of who takes in orders (presence figures change every few seconds: not printed). */
  const onStatus = (status: HubStatus): void => {
    const key = `${status.mode}|${intakeWords(status)}`;
    if (key === said) return;
    said = key;
    say(status, 'hub');
  };
  const hub = createHubLink({
    terminalId: config.terminalId,
    version: io.env.npm_package_version ?? 'cli',
    emit: (name, body) => {
      if (name === 'hub.status') onStatus(body as HubStatus);
    },
    log,
    now,
    // From a shell every environment's secret is in the keychain (`packdesk hub join` put it there).
    secrets: deps.secrets ?? ((environment) => keychainHubSecrets({ environment })),
    ...(io.env.PACKDESK_NATS_SERVER ? { explicitProgram: io.env.PACKDESK_NATS_SERVER } : {}),
  });
  let service: ReturnType<typeof openEngineWithService>;
  try {
    service = openEngineWithService({
      dataDir: config.dataDir,
      authUrl: config.authUrl,
      baseUrl: config.baseUrl,
      vault: vaultFor(config, io.env),
      terminalId: config.terminalId,
      log,
      serviceProviderId: () => config.serviceProviderId,
      // The staff list and taught barcodes through the store hub, as in the app.
      ...hub.sharing,
    });
  } catch (e) {
    return cannotOpen(e, io);
  }
  // As the app: sending first, then the hub bound (it pauses intake on a member), then intake.
  service.engine.start();
  hub.attach(service, { environment: config.environment, dataDir: config.dataDir });
  service.intake.start();
  const place = loadHubConfig(config.dataDir);
  if (place.ok && place.config === null) onStatus(hub.status());
  await stopped;
  // The lease handed over and the hub process stopped before the engine closes.
  await hub.detach();
  await service.close();
  const at = new Date(now()).toISOString();
  io.write(json ? `${JSON.stringify({ at, event: 'stopped' })}\n` : `${at} stopped: intake lease handed over, hub program stopped, data file closed\n`);
  return EXIT.OK;
}
