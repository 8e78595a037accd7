/** How typed text found an order (the order finder's kinds of match), most certain first. */
export const MATCH_KINDS = ['id', 'idEnd', 'invoice', 'phone', 'customer'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** Most orders one search answers with: a short list a packer reads at a glance. */
export const FIND_LIMIT = 8;
