/**
 * Run as a child process by keychain.test.ts with DBUS_SESSION_BUS_ADDRESS pointing at a socket
 * that does not exist: prints what the keytar vault says, as one JSON line.
 */
import { KeytarVault } from '../../../../src/main/core/auth/keytar-vault';

async function main(): Promise<void> {
  const vault = new KeytarVault({ environment: 'training', timeoutMs: 15_000 });
  const health = await vault.health();
  let saveError: string | null = null;
  try {
    await vault.setCredentials({ clientId: 'child-client', clientSecret: 'child-secret-never-stored' });
  } catch (error) {
    saveError = error instanceof Error ? error.message : String(error);
  }
  process.stdout.write(`${JSON.stringify({ health, saveError })}\n`);
}

void main();
