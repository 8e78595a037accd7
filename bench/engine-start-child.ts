/**
 * The process bench/engine-start.ts kills and restarts: loads the engine, opens it on the data
 * folder it is given, starts it and makes one tap, printing when each step ended (ms since the
 * process began, `performance.now()`), then waits to be killed. The benchmark bundles it into one
 * file first, as electron-vite bundles the app, so module loading is measured as it happens there.
 * Argv: DATA_DIR SERVICE_URL ORDER_ID
 */
const entryAt = performance.now();

async function run(): Promise<void> {
  const [dataDir, url, orderId] = process.argv.slice(2);
  if (!dataDir || !url || !orderId) throw new Error('usage: engine-start-child DATA_DIR SERVICE_URL ORDER_ID');
  const { MemoryVault } = await import('../src/main/core/auth');
  const { openEngineWithService } = await import('../src/main/core/engine');
  const loadedAt = performance.now();
  const service = openEngineWithService({
    dataDir,
    authUrl: url,
    baseUrl: url,
    vault: new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }),
    terminalId: 'bench-start',
  });
  const openedAt = performance.now();
  service.engine.start();
  const startedAt = performance.now();
  const tap = service.engine.submitTap(orderId, { kind: 'orderState', state: 'ACCEPTED' });
  const tappedAt = performance.now();
  if (!tap.ok) throw new Error(`the first tap was refused: ${tap.problem.message}`);
  process.stdout.write(`${JSON.stringify({ entryAt, loadedAt, openedAt, startedAt, tappedAt })}\n`);
  // Keeps running (sending what is due) until killed, as an app would.
  setInterval(() => undefined, 60_000);
}

run().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
