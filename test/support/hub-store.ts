/**
 * A store of counters joined to one hub, as tests and benchmarks need it before the lead's hub
 * session exists: each counter's real engine (serviceEngine over the sandbox), its own NATS
 * connection, the intake lease and the shared order bodies, wired the way the session wires them
 * (the lease holder's intake polls, what it stores goes into the hub, every counter watches).
 */
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import type { ServiceEngine } from '../../src/main/core/engine';
import { intakeCounterPorts } from '../../src/main/core/engine/hub-counter';
import { type IntakeLease, startIntakeLease } from '../../src/main/core/hub/lease';
import { openExistingBucket } from '../../src/main/core/hub/nats/buckets';
import { ORDERS_BUCKET, orderKey, type SharedOrders, startSharedOrders } from '../../src/main/core/hub/shared-orders';
import { systemTimers } from '../../src/main/core/time';
import { sampleOrder } from './orders';

export interface HubCounter {
  readonly counterId: string;
  readonly service: ServiceEngine;
  readonly nc: NatsConnection;
  readonly lease: IntakeLease;
  readonly shared: SharedOrders;
  /** Ids the hub's watch stored as new on this counter (each rings the new-order alert). */
  readonly hubNew: string[];
  /** Ids this counter's own intake stored. */
  readonly ownStored: string[];
  /** Puts of what its own intake stored that the hub has not answered yet. */
  publishing(): number;
  /** Gone as a crash would look to the hub: the connection dropped, the lease key left to lapse, the engine closed. */
  vanish(): Promise<void>;
  /** A clean quit: the lease released at once, then everything closed. */
  quit(): Promise<void>;
}

/** Joins an engine to the hub at `url`: its intake polls only while it holds the lease. */
export async function joinHub(url: string, counterId: string, service: ServiceEngine, options: { leaseMs?: number } = {}): Promise<HubCounter> {
  const nc = await connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  const ports = intakeCounterPorts(service);
  const hubNew: string[] = [];
  const ownStored: string[] = [];
  let publishing = 0;
  ports.pauseIntake();
  const shared = startSharedOrders(nc, ports, { now: Date.now, timers: systemTimers, onStored: (_ids, newIds) => hubNew.push(...newIds) });
  const lease = startIntakeLease(
    nc,
    { counterId, counterName: `Counter ${counterId}`, version: 'test' },
    { now: Date.now, timers: systemTimers, ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}) },
  );
  lease.on((state) => (state.holding ? ports.resumeIntake() : ports.pauseIntake()));
  const unsubscribe = service.onIntake((event) => {
    if (event.kind !== 'stored' || event.from === 'hub') return;
    ownStored.push(...event.orderIds);
    publishing += 1;
    void shared.publish(event.orderIds).finally(() => (publishing -= 1));
  });
  service.intake.start();
  let gone = false;
  const end = async (clean: boolean): Promise<void> => {
    if (gone) return;
    gone = true;
    unsubscribe();
    if (clean) await lease.close();
    await shared.close();
    await nc.close();
    if (!clean) await lease.close(); // its renewals already failed: nothing is deleted
    await service.close();
  };
  return { counterId, service, nc, lease, shared, hubNew, ownStored, publishing: () => publishing, vanish: () => end(false), quit: () => end(true) };
}

let markers = 0;
/** Whether an order id is a marker body's (putMarkerBody): counters store and report it like any order, so tests leave it out. */
export const isMarkerBody = (orderId: string): boolean => orderId.startsWith('MARK-');

/**
 * Puts a marker order body into the hub's orders bucket (made by a counter already) and returns
 * its id: "every body written before now has been stored" as a signal. A counter's watch delivers
 * the bucket's writes in order and stores them in that order, so once a counter holds the marker
 * it has stored, and reported, every body whose write was answered before the marker was put.
 */
export async function putMarkerBody(nc: NatsConnection): Promise<string> {
  const marker = sampleOrder({ id: `MARK-${++markers}`, orderState: 'Created', updatedAt: new Date().toISOString() });
  const kv = await openExistingBucket(nc, ORDERS_BUCKET);
  await kv.put(orderKey(marker.id), JSON.stringify(marker));
  return marker.id;
}
