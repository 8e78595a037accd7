/**
 * The centre believes a store only about itself (issue 37, item 3): a message counts only when its
 * source stamp names a sourced store's own source and its subject and body say the same store; a
 * version that is not a plain release number is refused; the newest version is never raised by
 * one store's word alone. The stamps themselves are nats-server's: the fleet tests run them for real.
 */
import { describe, expect, it } from 'vitest';
import { believe, sourceTag, storeOfSource } from '../../src/fleet/belief';
import { refusalLine } from '../../src/fleet/refusals';
import { fleetStatus, newestVersion } from '../../src/fleet/status';
import type { CounterHealth } from '../../src/main/core/hub/chain/north';

const health = (storeId: string, counterId: string, version = '1.4.0'): CounterHealth => ({
  kind: 'counter', storeId, counterId, counterName: 'Counter 1', version, seq: 1, runAt: 1, at: 2, tapsWaiting: 0, oldestWaitingAt: null, lastSentAt: null, online: true, clockDifferenceMs: 0, lastIntakeAt: null, storageWarnings: [],
});
const stored = (message: unknown, subject: string, source: string | null) => ({ subject, data: new TextEncoder().encode(JSON.stringify(message)), source });
const storeOf = storeOfSource([{ storeId: 'store-a' }, { storeId: 'store-b', name: 'PACKDESK_NORTH' }]);

describe('what the centre believes', () => {
  it('names a store by nats-server’s stamp of its source', () => {
    // As nats-server 2.9.10 stamped a message sourced from $JS.storex.API (seen on a real server).
    expect(sourceTag('storex')).toBe('PACKDESK_NORTH:YkmEefhR');
    expect(storeOf(`${sourceTag('store-b')} 42`)).toBe('store-b');
    expect(storeOf(`${sourceTag('store-z')} 1`)).toBeNull();
    expect(storeOf(null)).toBeNull();
  });

  it('takes a store’s own message and refuses one that speaks for another, one not sourced, one unreadable, one with a made-up version', () => {
    const own = health('store-a', 'a-c1');
    expect(believe(stored(own, 'packdesk.north.store-a.counter.a-c1', `${sourceTag('store-a')} 7`), storeOf)).toEqual({ ok: true, message: own });
    // Store b's link carrying a message about store a, on store a's subject or its own.
    expect(believe(stored(own, 'packdesk.north.store-a.counter.a-c1', `${sourceTag('store-b')} 7`), storeOf)).toEqual({ ok: false, why: 'other-store' });
    expect(believe(stored(own, 'packdesk.north.store-b.counter.a-c1', `${sourceTag('store-b')} 7`), storeOf)).toEqual({ ok: false, why: 'other-store' });
    // The subject and the body disagree inside a store's own link.
    expect(believe(stored(own, 'packdesk.north.store-a.counter.a-c2', `${sourceTag('store-a')} 7`), storeOf)).toEqual({ ok: false, why: 'other-store' });
    expect(believe(stored(health('store-c', 'c-c1'), 'packdesk.north.store-c.counter.c-c1', `${sourceTag('store-c')} 1`), storeOf)).toEqual({ ok: false, why: 'not-sourced' });
    expect(believe(stored(own, 'packdesk.north.store-a.counter.a-c1', null), storeOf)).toEqual({ ok: false, why: 'not-sourced' });
    expect(believe({ subject: 'packdesk.north.store-a.summary', data: new TextEncoder().encode('{not json'), source: sourceTag('store-a') }, storeOf)).toEqual({ ok: false, why: 'unreadable' });
    for (const version of ['99.0.0-evil', 'v2', '1.2', '1.2.3.4', '']) {
      expect(believe(stored(health('store-a', 'a-c1', version), 'packdesk.north.store-a.counter.a-c1', sourceTag('store-a')), storeOf), version).toEqual({ ok: false, why: 'version' });
    }
    expect(refusalLine({ 'other-store': 2, unreadable: 1 })).toBe('3 (1 unreadable, 2 speaking for another store)');
    expect(refusalLine({})).toBeNull();
  });

  it('raises the newest version only when counters of two stores run it (of two counters, in a one-store fleet)', () => {
    const fleet = [health('store-a', 'a-c1', '1.4.0'), health('store-a', 'a-c2', '1.4.0'), health('store-b', 'b-c1', '1.4.0'), health('store-b', 'b-c2', '99.0.0')];
    expect(newestVersion(fleet, 2)).toBe('1.4.0');
    expect(newestVersion([...fleet, health('store-b', 'b-c3', '99.0.0')], 2)).toBe('1.4.0');
    expect(newestVersion([...fleet, health('store-a', 'a-c3', '1.5.0'), health('store-b', 'b-c3', '1.5.0')], 2)).toBe('1.5.0');
    expect(newestVersion([health('store-a', 'a-c1', '2.0.0')], 1)).toBeNull();
    expect(newestVersion([health('store-a', 'a-c1', '2.0.0'), health('store-a', 'a-c2', '2.0.0')], 1)).toBe('2.0.0');
    // One store's 99.0.0 makes no real counter "old version"; stores not sourced are not listed.
    const status = fleetStatus({ stores: ['store-a', 'store-b'], latest: fleet.map((message) => ({ message, arrivedAt: 1_000 })), refused: {} }, 2_000);
    expect(status.stores.flatMap((s) => s.counters).filter((c) => c.problems.includes('old-version'))).toEqual([]);
    expect(status.stores.map((s) => s.storeId).sort()).toEqual(['store-a', 'store-b']);
  });
});
