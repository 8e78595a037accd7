/**
 * Auto-print's watcher over the renderer's outbox store: it prints a slip once for each PACKED tap
 * made on this terminal after it started, and only while the setting is on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxEntryView, Settings } from '../../../src/shared/ipc';
import { watchPackedTaps } from '../../../src/renderer/src/print/autoPrint';
import { useOutbox } from '../../../src/renderer/src/store/outbox';
import { useStatus } from '../../../src/renderer/src/store/status';

function entry(id: number, orderId: string, state: string, createdAt: number, extra: Partial<OutboxEntryView> = {}): OutboxEntryView {
  return {
    id,
    requestId: `r${id}`,
    orderId,
    action: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F-S', fulfillmentState: state as 'PACKED' },
    summary: `Mark ${state}`,
    state: 'queued',
    createdAt,
    sendAfter: createdAt + 5_000,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    mayBeApplied: false,
    sentAt: null,
    packer: null,
    ...extra,
  };
}

function autoPrint(on: boolean): void {
  useStatus.getState().setSettings({ autoPrintSlip: on } as Settings);
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  useOutbox.getState().replaceAll([]);
});

describe('auto-print', () => {
  it('prints each new PACKED tap once, never taps from before it started nor other steps', () => {
    autoPrint(true);
    useOutbox.getState().merge([entry(1, 'ORD-OLD', 'PACKED', 900)]);
    const printed: string[] = [];
    stop = watchPackedTaps((id) => printed.push(id), 1_000);
    useOutbox.getState().merge([entry(2, 'ORD-A', 'PACKING', 1_001), entry(3, 'ORD-A', 'PACKED', 1_002)]);
    // The same entry again (sending, then sent) prints nothing more.
    useOutbox.getState().merge([entry(3, 'ORD-A', 'PACKED', 1_002, { state: 'sending' })]);
    useOutbox.getState().merge([entry(3, 'ORD-A', 'PACKED', 1_002, { state: 'sent' }), entry(4, 'ORD-B', 'PACKED', 1_003)]);
    expect(printed).toEqual(['ORD-A', 'ORD-B']);
  });

  it('prints nothing while the setting is off, and nothing for a tap first seen already undone', () => {
    autoPrint(false);
    const printed: string[] = [];
    stop = watchPackedTaps((id) => printed.push(id), 0);
    useOutbox.getState().merge([entry(5, 'ORD-C', 'PACKED', 10)]);
    autoPrint(true);
    useOutbox.getState().merge([entry(6, 'ORD-D', 'PACKED', 11, { state: 'discarded' }), entry(7, 'ORD-E', 'PACKED', 12)]);
    expect(printed).toEqual(['ORD-E']);
  });
});
