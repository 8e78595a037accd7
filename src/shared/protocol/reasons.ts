/**
 * Reason catalogues, as data. The service adds reasons over time with a date, so a new dated
 * list is a change to these arrays only. Codes the service sends back that are not listed here
 * are shown as they are (see `reasonLabel`), never rejected.
 */

export interface Reason {
  /** Code sent to the service. */
  readonly code: string;
  /**
   * The English words (the CLI's, and the fallback). The terminal's screen shows the reason by
   * its code from its translation files (`reasons:<code>`, see `reasonKey`), in the staff's language.
   */
  readonly label: string;
  /** Date the service added the code, dd/mm/yyyy as in the specification. */
  readonly added: string;
  /** About a prescription: offered only for an item (or an order) that needs one, and first there. */
  readonly prescription?: boolean;
  /** Needs the manager PIN (fraud claims are serious). */
  readonly needsManager?: boolean;
  /**
   * A cancel reason's moments: when in an order's life a packer may give it (absent: any moment).
   * "Buyer refused delivery" is no reason to reject an order nobody has packed.
   */
  readonly moments?: readonly CancelMoment[];
  /**
   * The marketplace's own process (refunds, agent checks, its time limits): the service may send it
   * back and the screen names it, but a packer never picks it.
   */
  readonly serviceOnly?: boolean;
}

/**
 * Where an order is when a packer cancels it: not yet accepted (Reject), accepted and in the store,
 * or out for delivery.
 */
export type CancelMoment = 'reject' | 'inStore' | 'onTheWay';

const BEFORE_DISPATCH: readonly CancelMoment[] = ['reject', 'inStore'];
const AFTER_ACCEPT: readonly CancelMoment[] = ['inStore', 'onTheWay'];
const ON_THE_WAY: readonly CancelMoment[] = ['onTheWay'];

const ADDED_2024_08_12 = '12/08/2024';
const ADDED_2024_09_27 = '27/09/2024';

/** Reasons accepted with ITEM_UNIT_UPDATE. */
export const ITEM_UNIT_REASONS: readonly Reason[] = [
  { code: 'SELLER_REFUND_ACCEPTED', label: 'Seller refund accepted', added: ADDED_2024_08_12, serviceOnly: true },
  { code: 'RESOLUTION_SLA_BREACHED', label: 'Resolution time breached', added: ADDED_2024_08_12, serviceOnly: true },
  { code: 'SELLER_REJECTED_AGENT_VERIFIED', label: 'Seller rejected, agent verified', added: ADDED_2024_08_12, serviceOnly: true },
  { code: 'INCORRECT_DESCRIPTION', label: 'Incorrect description', added: ADDED_2024_08_12 },
  { code: 'ITEM_NOT_IN_PRESCRIPTION', label: 'Item not in prescription', added: ADDED_2024_08_12, prescription: true },
  {
    code: 'QUANTITY_EXCEED_PRESCRIPTION_LIMIT',
    label: 'Quantity exceeds prescription limit',
    added: ADDED_2024_08_12,
    prescription: true,
  },
  { code: 'QUANTITY_EXCEED_AVAILABLE_LIMIT', label: 'Quantity exceeds available stock', added: ADDED_2024_08_12 },
  { code: 'ITEM_UNAVAILABLE', label: 'Item unavailable', added: ADDED_2024_08_12 },
  { code: 'ITEM_CANCEL_ON_CUSTOMER_REQUEST', label: 'Customer asked to cancel item', added: ADDED_2024_08_12 },
  { code: 'REASON_NOT_LISTED', label: 'Other reason (not listed)', added: ADDED_2024_08_12 },
];

/** Reasons accepted with ORDER_STATE_UPDATE when the order state is CANCELLED. */
export const CANCEL_REASONS: readonly Reason[] = [
  { code: 'BUYER_NO_CONTACT', label: 'Buyer cannot be contacted', added: ADDED_2024_08_12 },
  { code: 'BUYER_NOT_AVAILABLE', label: 'Buyer not available', added: ADDED_2024_08_12, moments: ON_THE_WAY },
  { code: 'BUYER_REFUSED_DELIVERY', label: 'Buyer refused delivery', added: ADDED_2024_08_12, moments: ON_THE_WAY },
  { code: 'DELIVERY_PINCODE_UNSERVICEABLE', label: 'Delivery pincode not serviceable', added: ADDED_2024_08_12, moments: BEFORE_DISPATCH },
  { code: 'DELIVERY_VEHICLE_ISSUES', label: 'Delivery vehicle problem', added: ADDED_2024_08_12, moments: AFTER_ACCEPT },
  { code: 'INCORRECT_PRICING', label: 'Incorrect pricing', added: ADDED_2024_08_12, moments: BEFORE_DISPATCH },
  { code: 'ITEM_UNAVAILABLE', label: 'Item unavailable', added: ADDED_2024_08_12, moments: BEFORE_DISPATCH },
  { code: 'SUSPICIOUS_ORDER_ACTIVITY', label: 'Suspicious order activity', added: ADDED_2024_08_12 },
  { code: 'TRADER_ORDER', label: 'Trader order', added: ADDED_2024_08_12, moments: BEFORE_DISPATCH },
  { code: 'WEATHER_RELATED_ISSUES', label: 'Weather problems', added: ADDED_2024_08_12 },
  { code: 'BUYER_ITEM_QTY_UPDATE', label: 'Buyer changed item quantity', added: ADDED_2024_08_12, moments: AFTER_ACCEPT },
  { code: 'LOCATION_NOT_FOUND', label: 'Location not found', added: ADDED_2024_08_12, moments: ON_THE_WAY },
  { code: 'CUSTOMER_CANCEL_REQUEST', label: 'Customer asked to cancel', added: ADDED_2024_08_12 },
  { code: 'BUYER_ADDRESS_UPDATE', label: 'Buyer changed address', added: ADDED_2024_08_12, moments: AFTER_ACCEPT },
  { code: 'BUYER_ITEMS_UPDATE', label: 'Buyer changed items', added: ADDED_2024_08_12, moments: AFTER_ACCEPT },
  { code: 'EMPLOYEE_UNAVAILABILITY', label: 'No staff available', added: ADDED_2024_08_12, moments: BEFORE_DISPATCH },
  { code: 'DELIVERY_PERSONNEL_UNAVAILABLE', label: 'No delivery person available', added: ADDED_2024_08_12 },
  {
    code: 'INVALID_PRESCRIPTION',
    label: 'Invalid prescription',
    added: ADDED_2024_09_27,
    prescription: true,
    moments: BEFORE_DISPATCH,
  },
  {
    code: 'FRAUD_PRESCRIPTION',
    label: 'Fraudulent prescription',
    added: ADDED_2024_09_27,
    prescription: true,
    needsManager: true,
    moments: BEFORE_DISPATCH,
  },
];

/** Finds a reason by code in a catalogue. */
export function findReason(catalogue: readonly Reason[], code: string): Reason | undefined {
  return catalogue.find((r) => r.code === code);
}

/** A label for any code, listed or not: unknown codes from the service are shown as they are. */
export function reasonLabel(catalogue: readonly Reason[], code: string): string {
  return findReason(catalogue, code)?.label ?? code;
}

/** The translation key of a reason's words in the renderer's language files. */
export function reasonKey(code: string): string {
  return `reasons:${code}`;
}

/**
 * The reasons packers pick most, most common first (the rest keep the catalogue's order after
 * them, and "not listed" comes last). A fixed order, never by recent use: a packer finds a tile
 * where it was yesterday.
 */
const MOST_COMMON = new Map<readonly Reason[], readonly string[]>([
  [
    ITEM_UNIT_REASONS,
    ['ITEM_UNAVAILABLE', 'QUANTITY_EXCEED_AVAILABLE_LIMIT', 'ITEM_CANCEL_ON_CUSTOMER_REQUEST', 'INCORRECT_DESCRIPTION'],
  ],
  [
    CANCEL_REASONS,
    ['ITEM_UNAVAILABLE', 'CUSTOMER_CANCEL_REQUEST', 'BUYER_NOT_AVAILABLE', 'BUYER_NO_CONTACT', 'EMPLOYEE_UNAVAILABILITY', 'DELIVERY_PERSONNEL_UNAVAILABLE'],
  ],
]);
const LAST = new Set(['REASON_NOT_LISTED']);

/** What a reason must fit to be offered: whether a prescription is involved, and for a cancellation, when. */
export interface ReasonFit {
  /** The item (a unit cut) or the order (a cancellation) needs a prescription. */
  readonly prescription: boolean;
  /** A cancellation's moment; absent for unit cuts. */
  readonly moment?: CancelMoment;
}

/**
 * The reasons a packer is offered, in the order they see them: only those that fit (no prescription
 * reasons without a prescription, no marketplace process codes, no cancel reason of another
 * moment), prescription reasons first where they fit, then the most common, "not listed" last.
 */
export function reasonsFor(catalogue: readonly Reason[], fit: ReasonFit): Reason[] {
  const common = MOST_COMMON.get(catalogue) ?? [];
  const place = (r: Reason, index: number): number => {
    const rank = common.indexOf(r.code);
    if (LAST.has(r.code)) return 10_000 + index;
    return rank >= 0 ? rank : common.length + index;
  };
  const fits = (r: Reason): boolean =>
    !r.serviceOnly && (!r.prescription || fit.prescription) && (fit.moment === undefined || r.moments === undefined || r.moments.includes(fit.moment));
  return catalogue
    .map((r, index) => ({ r, index }))
    .filter(({ r }) => fits(r))
    .map(({ r, index }) => ({ r, key: (r.prescription ? 0 : 100_000) + place(r, index) }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.r);
}
