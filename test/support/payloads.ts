/** One well-formed payload per command, and the malformed variants derived from it. */
import { COMMANDS, type CommandName, type CommandPayload } from '../../src/shared/ipc';

export const VALID_PAYLOADS: { [C in CommandName]: CommandPayload<C> } = {
  'app.info': {},
  'orders.list': {},
  'orders.get': { orderId: 'ORD-1' },
  'orders.add': { orderId: 'ORD-1' },
  'taps.submit': { orderId: 'ORD-1', input: { kind: 'fulfilment', fulfilmentId: 'F-1', state: 'PACKED' } },
  'orders.find': { text: 'Meera' },
  'orders.search': { text: 'Meera', standing: 'left', day: '2026-11-25' },
  'orders.remove': { orderId: 'ORD-1' },
  'orders.head': { rows: 20 },
  'orders.acknowledge': { orderId: 'ORD-1' },
  'taps.undo': { entryId: 1 },
  'outbox.list': {},
  'outbox.retry': { entryId: 1 },
  'outbox.discard': { entryId: 1, pin: '1234' },
  'sync.status': {},
  'intake.status': {},
  'intake.checkNow': {},
  'settings.get': {},
  'settings.update': { pin: '1234', patch: { sounds: false } },
  'credentials.save': {
    pin: '1234',
    environment: 'staging',
    authUrl: 'https://auth.example',
    baseUrl: 'https://orders.example',
    clientId: 'client',
    clientSecret: 'secret',
  },
  'pin.verify': { pin: '1234' },
  'pin.set': { newPin: '1234' },
  'updates.status': {},
  'updates.installNow': { pin: '1234' },
  'support.exportBundle': { pin: '1234' },
  'kiosk.leave': { pin: '1234' },
  'printers.list': {},
  'print.run': { document: 'packingSlip', contentHeightMm: 120 },
  'hub.status': {},
  'orders.takeOver': { orderId: 'ORD-1' },
  'orders.settleConflict': { orderId: 'ORD-1', keeperId: 'counter-1' },
  'orders.putBack': { orderId: 'ORD-1' },
  'hub.create': { pin: '1234', name: 'Counter 1' },
  'hub.joinCode': { pin: '1234' },
  'hub.join': { pin: '1234', code: 'PD1-ABCD', name: 'Counter 2' },
  'hub.leave': { pin: '1234' },
  'chain.status': {},
  'chain.link': { pin: '1234', link: { storeId: 'store-1', url: 'tls://leaf.chain.example:7422', credentials: null, ca: null } },
  'chain.unlink': { pin: '1234' },
  'shift.report': { day: '2026-11-25' },
  'shift.exportCsv': {
    day: '2026-11-25',
    table: 'packers',
    words: {
      columns: {
        day: 'Day', packer: 'Packer', counter: 'Counter', hour: 'Hour', received: 'Received', accepted: 'Accepted', rejected: 'Rejected', cancelled: 'Cancelled',
        packed: 'Packed', handedOver: 'Handed to rider', late: 'Packed late', toAcceptMedian: 'a', toAcceptP90: 'b', toPackMedian: 'c', toPackP90: 'd',
      },
      noName: 'No name (the counter)',
      thisCounter: 'This counter',
      dialogTitle: 'Save the day as CSV',
    },
  },
  'orders.timeline': { orderId: 'ORD-1' },
  'prints.record': { orderId: 'ORD-1', document: 'packingSlip', outcome: 'printed' },
  'staff.list': { pin: '1234' },
  'staff.add': { pin: '1234', name: 'Ravi', packerPin: '2468' },
  'staff.update': { pin: '1234', id: 1, name: 'Ravi K' },
  'staff.remove': { pin: '1234', id: 1 },
  'staff.current': {},
  'staff.signIn': { badge: 'PDKS-7Q4K9M2X' },
  'staff.signOut': {},
  'packing.get': { orderId: 'ORD-1' },
  'packing.scan': { orderId: 'ORD-1', code: 'PH-DOLO650' },
  'packing.teach': { orderId: 'ORD-1', code: '8901234567897', itemId: 'IT-1' },
};

/** A value of another type than `v`. */
function wrongType(v: unknown): unknown {
  if (typeof v === 'string') return 42;
  if (typeof v === 'number') return 'seven';
  if (typeof v === 'boolean') return 'yes';
  if (Array.isArray(v)) return { not: 'a list' };
  if (v && typeof v === 'object') return 'not an object';
  return { unexpected: true };
}

/** Malformed variants of a command's payload: wrong types, extra keys, missing fields, non-objects. */
export function malformedPayloads(command: CommandName): { label: string; payload: unknown }[] {
  const valid = VALID_PAYLOADS[command] as Record<string, unknown>;
  const schema = COMMANDS[command].payload;
  const out: { label: string; payload: unknown }[] = [
    { label: 'null', payload: null },
    { label: 'undefined', payload: undefined },
    { label: 'a number', payload: 7 },
    { label: 'a string', payload: 'orders' },
    { label: 'a list', payload: [valid] },
    { label: 'an extra key', payload: { ...valid, extra: 1 } },
    { label: 'a prototype-pollution key', payload: JSON.parse(`{"__proto__":{"admin":true},${JSON.stringify(valid).slice(1)}`.replace(',}', '}')) },
  ];
  for (const [key, value] of Object.entries(valid)) {
    out.push({ label: `${key} of the wrong type`, payload: { ...valid, [key]: wrongType(value) } });
    if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [inner, innerValue] of Object.entries(value))
        out.push({ label: `${key}.${inner} of the wrong type`, payload: { ...valid, [key]: { ...value, [inner]: wrongType(innerValue) } } });
    const { [key]: _dropped, ...without } = valid;
    if (!schema.safeParse(without).success) out.push({ label: `${key} missing`, payload: without });
  }
  return out;
}
