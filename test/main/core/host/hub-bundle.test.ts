/**
 * The support bundle's `hub` section: on a counter that is the store hub (training: a hub on
 * 127.0.0.1 with its secret in memory, a real nats-server), the bundle holds hub.json (role,
 * connection, the hub program, who takes in orders, counters) and doctor.txt's hub line, and no
 * byte of any bundle file is the store's secret.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJoinCode } from '../../../../src/main/core/hub/join-code';
import type { HubStatus } from '../../../../src/shared/hub';
import { startTestHost, type TestHost } from '../../../support/host';
import { until } from '../../../support/until';

let t: TestHost | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('support bundle: the hub section', () => {
  it('holds the hub as this counter sees it, with the same line as doctor, and never the secret', async () => {
    t = await startTestHost();
    const host = t;
    await host.call('pin.set', { newPin: '1357' });
    const made = await host.call('hub.create', { pin: '1357' });
    const parsed = parseJoinCode(made.code);
    if (!parsed.ok) throw new Error('the join code does not parse');
    const secret = parsed.code.secret;
    const status = await until(
      'the hub connected, taking in orders, with this counter present',
      async () => {
        const now = await host.call('hub.status', {});
        return now.mode === 'connected' && now.intakeHolder !== null && now.counters.some((c) => c.present) && now;
      },
      20_000,
    );
    expect(status.mode).toBe('connected');

    const { path } = await host.call('support.exportBundle', { pin: '1357' });
    const hub = JSON.parse(readFileSync(join(path, 'hub.json'), 'utf8')) as HubStatus;
    expect(hub).toMatchObject({ mode: 'connected', role: 'hub', counterName: 'Counter 1', intakeHolder: { counterName: 'Counter 1' }, server: { running: true, problem: null } });
    expect(hub.counters.map((c) => [c.counterName, c.present])).toEqual([['Counter 1', true]]);
    expect(readFileSync(join(path, 'doctor.txt'), 'utf8')).toMatch(/ok\s+hub\s+store hub "Counter 1", connected; hub program running \(pid \d+, nats-server [\d.]+, 127\.0\.0\.1:\d+\); takes in orders: Counter 1; counters present: Counter 1/);
    for (const file of filesUnder(path)) expect({ file, has: readFileSync(file).includes(secret) }).toEqual({ file, has: false });
  }, 60_000);
});
