/**
 * The process bench/engine-start.ts kills and restarts: loads the engine, opens it on the data
 * folder it is given, starts it and makes one tap, printing when each step ended (ms since the
 * process began, `performance.now()`) and the CPU time it took, then waits to be killed. The
 * benchmark bundles it first, as electron-vite bundles the app, so module loading is measured as
 * it happens there.
 * Argv: DATA_DIR SERVICE_URL ORDER_ID
 */
const entryAt = performance.now();
const entryCpu = process.cpuUsage();
/** CPU time this process has used since our first line, ms (user + system). */
const cpu = (): number => {
  const used = process.cpuUsage(entryCpu);
  return (used.user + used.system) / 1000;
};

async function run(): Promise<void> {
  const [dataDir, url, orderId] = process.argv.slice(2);
  if (!dataDir || !url || !orderId) throw new Error('usage: engine-start-child DATA_DIR SERVICE_URL ORDER_ID');
  const { MemoryVault } = await import('../src/main/core/auth');
  const { openEngineWithService } = await import('../src/main/core/engine');
  const loadedAt = performance.now();
  const loadedCpu = cpu();
  const service = openEngineWithService({
    dataDir,
    authUrl: url,
    baseUrl: url,
    vault: new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }),
    terminalId: 'bench-start',
    // As the app opens it (host/runtime.ts): the page check runs beside the engine.
    openingCheck: 'later',
  });
  const openedAt = performance.now();
  const openedCpu = cpu();
  service.engine.start();
  const startedAt = performance.now();
  const startedCpu = cpu();
  const tap = service.engine.submitTap(orderId, { kind: 'orderState', state: 'ACCEPTED' });
  const tappedAt = performance.now();
  const tappedCpu = cpu();
  if (!tap.ok) throw new Error(`the first tap was refused: ${tap.problem.message}`);
  process.stdout.write(`${JSON.stringify({ entryAt, loadedAt, openedAt, startedAt, tappedAt, loadedCpu, openedCpu, startedCpu, tappedCpu })}\n`);
  // Keeps running (sending what is due) until killed, as an app would.
  setInterval(() => undefined, 60_000);
}

run().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
