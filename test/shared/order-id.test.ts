import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/shared/ipc';
import { MAX_ID_LENGTH, orderIdProblem, OrderSchema, printableId, printableText } from '../../src/shared/protocol';
import { orderIdMatcher } from '../../src/renderer/src/scanner/orderId';
import { sampleOrder } from '../support/orders';

const BAD = {
  tooLong: `ORD-${'1'.repeat(MAX_ID_LENGTH)}`,
  lost: 'ORD-12\uFFFD34',
  bidi: 'ORD-12\u202E34',
  control: 'ORD-12\u001b[2J34',
  c1: 'ORD-12\u008534',
  lineSeparator: 'ORD-12\u202834',
  spaced: ' ORD-1234',
  empty: '',
};

describe('the one order id rule', () => {
  it('accepts the platform and sandbox ids and refuses long, lost, invisible and controlling characters', () => {
    for (const good of ['OD2401121901140533863584', 'ORD-3249010', `ORD-${'1'.repeat(MAX_ID_LENGTH - 4)}`, 'ऑर्डर-12']) expect(orderIdProblem(good)).toBeNull();
    for (const [what, id] of Object.entries(BAD)) expect(orderIdProblem(id), what).not.toBeNull();
    expect(orderIdProblem(BAD.lost)).toMatch(/U\+FFFD/);
    expect(orderIdProblem(BAD.tooLong)).toMatch(/too long \(132 characters, at most 128\)/);
  });

  it('is the rule of the order schema (intake, update answers), the IPC payloads and the scanner alike', () => {
    for (const [what, id] of Object.entries(BAD)) {
      expect(OrderSchema.safeParse(sampleOrder({ id })).success, what).toBe(false);
      // The renderer trims what it sends; a spaced id is the same id there.
      if (what !== 'spaced') expect(COMMANDS['orders.add'].payload.safeParse({ orderId: id }).success, what).toBe(false);
      // However wide a manager's pattern, a code that breaks the rule is never opened as an order.
      expect(orderIdMatcher('.*')(id), what).toBe(what === 'spaced');
    }
    expect(COMMANDS['taps.submit'].payload.safeParse({ orderId: BAD.bidi, input: { kind: 'orderState', state: 'ACCEPTED' } }).success).toBe(false);
  });

  it('shows a bad id with its hidden characters written out, cut to the longest id', () => {
    expect(printableId('ORD-1234')).toBe('ORD-1234');
    expect(printableId(BAD.bidi)).toBe('ORD-12\\u202E34');
    expect(printableId(BAD.control)).toBe('ORD-12\\u001B[2J34');
    expect(printableId('ORD-\uD800')).toBe('ORD-\\uD800');
    expect(printableId(`ORD-${'9'.repeat(200)}`)).toHaveLength(MAX_ID_LENGTH);
    expect(printableText('line\n\tORD-12\u202E34\u0007')).toBe('line\n\tORD-12\\u202E34\\u0007');
    // In --json output the escape is JSON's own: the exact id parses back.
    expect(JSON.parse(printableText(JSON.stringify({ id: BAD.bidi }))).id).toBe(BAD.bidi);
  });

  it('shows outside text (names, invoice numbers) with every direction control written out, and Devanagari joiners kept (issue 38)', () => {
    const codes = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
    const raw = codes.map((c) => String.fromCharCode(c)).join('x');
    expect(printableText(raw)).toBe(codes.map((c) => `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`).join('x'));
    // ZWJ and ZWNJ shape Indic scripts and emoji; they cannot reorder text.
    expect(printableText('\u0915\u094D\u200D\u0937 \u0930\u200C\u094D')).toBe('\u0915\u094D\u200D\u0937 \u0930\u200C\u094D');
    // Once escaped, escaped no further (i18next escapes what a screen already did).
    expect(printableText(printableText('Ravi \u202Eabc'))).toBe('Ravi \\u202Eabc');
    expect(printableText('Asha Verma')).toBe('Asha Verma');
  });
});

describe('numbers and dates of an order, checked where they enter', () => {
  const withItems = (count: number) => sampleOrder({ items: [{ itemId: 'I-1', quantity: { count } }] });
  it('refuses a unit count no sum can hold, and money or places that cannot be', () => {
    expect(OrderSchema.safeParse(withItems(5e15)).success).toBe(false);
    expect(OrderSchema.safeParse(withItems(100_000)).success).toBe(true);
    expect(OrderSchema.safeParse(sampleOrder({ quote: { price: { value: 1e300 } } })).success).toBe(false);
    expect(OrderSchema.safeParse({ ...sampleOrder(), quote: { price: { value: Number.POSITIVE_INFINITY } } }).success).toBe(false);
    expect(OrderSchema.safeParse(sampleOrder({ billing: { address: { lat: 900 } } })).success).toBe(false);
  });

  it('drops a fulfilment time outside 2000-2100 and keeps the order, and the fields it does not know', () => {
    const order = { ...sampleOrder(), extra: { kept: true } };
    order.fulfillments[0]!.fulfilmentStatusHistory = { PACKED: { promised: { endTime: 1e300 } }, PACKING: { actual: { endTime: -1e20 }, expected: { endTime: 1_700_000_000_000 } } };
    const parsed = OrderSchema.parse(order);
    expect(parsed.fulfillments[0]?.fulfilmentStatusHistory).toEqual({ PACKED: {}, PACKING: { expected: { endTime: 1_700_000_000_000 } } });
    expect(parsed.extra).toEqual({ kept: true });
  });
});
