import { describe, expect, it } from 'vitest';
import {
  buildAction,
  buildUpdateRequest,
  CANCEL_REASONS,
  errorResponseSchema,
  ITEM_UNIT_REASONS,
  orderUpdateSuccessSchema,
  reasonLabel,
  reasonsFor,
  sameOrderState,
  tokenResponseSchema,
} from '../../src/shared/protocol';
import { sampleOrder } from '../support/orders';
import { cancelMoment } from '../../src/shared/fulfilment';
import type { CancelMoment } from '../../src/shared/protocol/reasons';

describe('protocol schemas', () => {
  it('parses the spec token response and keeps unknown fields', () => {
    const parsed = tokenResponseSchema().parse({
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'O-Bearer',
      expires_in: 86400,
      expires_at: 1_700_086_400_000,
      issued_at: 1_700_000_000_000,
      scope: 'orders',
    });
    expect(parsed.token_type).toBe('O-Bearer');
    expect((parsed as Record<string, unknown>).scope).toBe('orders');
  });

  it('refuses a token response without an access token', () => {
    expect(tokenResponseSchema().safeParse({ token_type: 'O-Bearer', expires_in: 10 }).success).toBe(false);
  });

  it('parses a success response with a whole order and keeps fields the service adds later', () => {
    const body = { requestContext: { requestId: 'r1', transactionId: 'ORD-1001' }, response: { ...sampleOrder(), loyalty: { points: 3 } } };
    const parsed = orderUpdateSuccessSchema().parse(body);
    expect(parsed.response.items).toHaveLength(2);
    expect((parsed.response as Record<string, unknown>).loyalty).toEqual({ points: 3 });
  });

  it('does not take an error response for a success response', () => {
    const error = { requestContext: { requestId: 'r1', transactionId: 'X' }, error: { errorCode: 'NOT_FOUND', message: 'Order X not found' } };
    expect(orderUpdateSuccessSchema().safeParse(error).success).toBe(false);
    expect(errorResponseSchema().parse(error).error.errorCode).toBe('NOT_FOUND');
  });

  it('compares order states case-insensitively', () => {
    expect(sameOrderState('Accepted', 'ACCEPTED')).toBe(true);
    expect(sameOrderState('In-progress', 'IN_PROGRESS')).toBe(true);
    expect(sameOrderState('Cancelled', 'ACCEPTED')).toBe(false);
  });
});

describe('reason catalogues', () => {
  it('carry the spec codes with their dates', () => {
    expect(ITEM_UNIT_REASONS).toHaveLength(10);
    expect(CANCEL_REASONS).toHaveLength(19);
    expect(CANCEL_REASONS.find((r) => r.code === 'FRAUD_PRESCRIPTION')?.added).toBe('27/09/2024');
    expect(CANCEL_REASONS.find((r) => r.code === 'BUYER_NO_CONTACT')?.added).toBe('12/08/2024');
  });

  it('shows unknown codes from the service as they are', () => {
    expect(reasonLabel(CANCEL_REASONS, 'SOMETHING_NEW')).toBe('SOMETHING_NEW');
    expect(reasonLabel(CANCEL_REASONS, 'WEATHER_RELATED_ISSUES')).toBe('Weather problems');
  });

  it('puts prescription reasons first for prescription items', () => {
    const ordered = reasonsFor(ITEM_UNIT_REASONS, { prescription: true });
    expect(ordered[0]?.prescription).toBe(true);
    expect(ordered[1]?.prescription).toBe(true);
    expect(ordered[2]?.prescription).toBeFalsy();
    // Then the most common, as for any item.
    expect(ordered[2]?.code).toBe('ITEM_UNAVAILABLE');
  });

  it('puts the most common reasons first, in a fixed order, "not listed" last', () => {
    const units = reasonsFor(ITEM_UNIT_REASONS, { prescription: false }).map((r) => r.code);
    expect(units[0]).toBe('ITEM_UNAVAILABLE');
    expect(units.at(-1)).toBe('REASON_NOT_LISTED');
    expect(reasonsFor(ITEM_UNIT_REASONS, { prescription: false }).map((r) => r.code)).toEqual(units);
    const cancel = reasonsFor(CANCEL_REASONS, { prescription: false, moment: 'inStore' }).map((r) => r.code);
    expect(cancel.slice(0, 2)).toEqual(['ITEM_UNAVAILABLE', 'CUSTOMER_CANCEL_REQUEST']);
    const rxCancel = reasonsFor(CANCEL_REASONS, { prescription: true, moment: 'inStore' }).map((r) => r.code);
    expect(rxCancel.slice(0, 3)).toEqual(['INVALID_PRESCRIPTION', 'FRAUD_PRESCRIPTION', 'ITEM_UNAVAILABLE']);
  });

  it('offers a unit cut only the reasons a packer gives: no marketplace process codes, prescription reasons only for prescription items', () => {
    const plain = reasonsFor(ITEM_UNIT_REASONS, { prescription: false }).map((r) => r.code);
    expect(plain).toEqual(['ITEM_UNAVAILABLE', 'QUANTITY_EXCEED_AVAILABLE_LIMIT', 'ITEM_CANCEL_ON_CUSTOMER_REQUEST', 'INCORRECT_DESCRIPTION', 'REASON_NOT_LISTED']);
    const rx = reasonsFor(ITEM_UNIT_REASONS, { prescription: true }).map((r) => r.code);
    expect(rx).toEqual(['ITEM_NOT_IN_PRESCRIPTION', 'QUANTITY_EXCEED_PRESCRIPTION_LIMIT', ...plain]);
    // The service may still send them back: they keep their words.
    expect(reasonLabel(ITEM_UNIT_REASONS, 'RESOLUTION_SLA_BREACHED')).toBe('Resolution time breached');
  });

  it('offers each moment of an order only the cancel reasons that fit it', () => {
    const codes = (moment: CancelMoment, prescription = false): string[] => reasonsFor(CANCEL_REASONS, { prescription, moment }).map((r) => r.code);
    // Reject: nothing about a delivery that has not started.
    expect(codes('reject')).not.toContain('BUYER_REFUSED_DELIVERY');
    expect(codes('reject')).not.toContain('DELIVERY_VEHICLE_ISSUES');
    expect(codes('reject')).not.toContain('BUYER_NOT_AVAILABLE');
    expect(codes('reject')).toEqual(expect.arrayContaining(['ITEM_UNAVAILABLE', 'EMPLOYEE_UNAVAILABILITY', 'DELIVERY_PINCODE_UNSERVICEABLE']));
    // Out for delivery: the doorstep's reasons, not the shelf's.
    expect(codes('onTheWay')).toEqual(expect.arrayContaining(['BUYER_REFUSED_DELIVERY', 'BUYER_NOT_AVAILABLE', 'LOCATION_NOT_FOUND']));
    expect(codes('onTheWay')).not.toContain('ITEM_UNAVAILABLE');
    expect(codes('onTheWay', true)).not.toContain('INVALID_PRESCRIPTION');
    // Prescription reasons only for an order that has a prescription item.
    expect(codes('inStore')).not.toContain('INVALID_PRESCRIPTION');
    expect(codes('inStore', true)).toContain('FRAUD_PRESCRIPTION');
    // "Customer asked to cancel" fits every moment; every catalogue reason fits at least one.
    for (const m of ['reject', 'inStore', 'onTheWay'] as const) expect(codes(m)).toContain('CUSTOMER_CANCEL_REQUEST');
    const offered = new Set((['reject', 'inStore', 'onTheWay'] as const).flatMap((m) => codes(m, true)));
    expect(CANCEL_REASONS.filter((r) => !offered.has(r.code))).toEqual([]);
  });

  it('tells where an order is when it is cancelled', () => {
    const order = sampleOrder();
    expect(cancelMoment({ ...order, orderState: 'Created' })).toBe('reject');
    const accepted = { ...order, orderState: 'Accepted' };
    expect(cancelMoment(accepted)).toBe('inStore');
    const onTheWay = {
      ...accepted,
      fulfillments: accepted.fulfillments.map((f) => (f.type === 'DELIVERY' ? { ...f, fulfillmentState: 'Out-for-delivery' } : f)),
    };
    expect(cancelMoment(onTheWay)).toBe('onTheWay');
  });
});

describe('builders', () => {
  it('build each action type from typed input', () => {
    expect(buildAction({ kind: 'fulfilment', fulfilmentId: 'F-1', state: 'PACKED' })).toEqual({
      ok: true,
      value: { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F-1', fulfillmentState: 'PACKED' },
    });
    expect(buildAction({ kind: 'units', itemId: 'I-1', units: 0, reason: 'ITEM_UNAVAILABLE' })).toMatchObject({
      ok: true,
      value: { type: 'ITEM_UNIT_UPDATE', itemUnits: 0 },
    });
    expect(buildAction({ kind: 'orderState', state: 'CANCELLED', reason: 'BUYER_NO_CONTACT' })).toMatchObject({
      ok: true,
      value: { type: 'ORDER_STATE_UPDATE', orderState: 'CANCELLED', reason: 'BUYER_NO_CONTACT' },
    });
    expect(buildAction({ kind: 'invoice', sellerInvoiceId: '  INV-7 ' })).toMatchObject({
      ok: true,
      value: { clientOrderInfo: { sellerInvoiceId: 'INV-7' } },
    });
  });

  it.each([
    [{ kind: 'units', itemId: 'I-1', units: 1, reason: 'BECAUSE' }, 'UNKNOWN_REASON', 'not a reason'],
    [{ kind: 'units', itemId: 'I-1', units: -1, reason: 'ITEM_UNAVAILABLE' }, 'NEGATIVE_UNITS', 'negative'],
    [{ kind: 'units', itemId: 'I-1', units: 1.5, reason: 'ITEM_UNAVAILABLE' }, 'UNITS_NOT_INTEGER', 'whole number'],
    [{ kind: 'orderState', state: 'CANCELLED' }, 'MISSING_REASON', 'reason to cancel'],
    [{ kind: 'orderState', state: 'CANCELLED', reason: 'ITEM_NOT_IN_PRESCRIPTION' }, 'UNKNOWN_REASON', 'not a cancellation reason'],
    [{ kind: 'fulfilment', fulfilmentId: '   ', state: 'PACKED' }, 'EMPTY_ID', 'must not be empty'],
    [{ kind: 'invoice', sellerInvoiceId: 'INV\u00071' }, 'BAD_ID', 'control characters'],
  ] as const)('refuse bad input %#', (input, code, words) => {
    const r = buildAction(input as never);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem.code).toBe(code);
      expect(r.problem.kind).toBe('invalid');
      expect(r.problem.message).toContain(words);
    }
  });

  it('make a request whose transactionId is the order id and actionType UPDATE', () => {
    const action = buildAction({ kind: 'invoice', sellerInvoiceId: 'INV-1' });
    if (!action.ok) throw new Error('expected ok');
    const r = buildUpdateRequest('ORD-1', 'req-1', [action.value]);
    expect(r).toEqual({
      ok: true,
      value: {
        requestContext: { requestId: 'req-1', transactionId: 'ORD-1', actionType: 'UPDATE' },
        orderId: 'ORD-1',
        actions: [action.value],
      },
    });
    expect(buildUpdateRequest('', 'req-1', [action.value]).ok).toBe(false);
    expect(buildUpdateRequest('ORD-1', 'req-1', []).ok).toBe(false);
  });
});
