/** Packers, signing in and scan to pack; and their commands. */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { emptySchema, idSchema, okSchema, orderIdInputSchema, pinSchema } from './shapes';

/** A packer's personal PIN: the manager PIN's format, never equal to it (checked by the main side). */
const packerPinSchema = pinSchema;

const packerNameSchema = builtOnce(() => z.string().trim().min(1).max(60));


/** One packer on the staff list, as Settings -> Staff shows it (never the PIN or its hash). */
export const staffMemberSchema = builtOnce(() => z.object({
  id: z.number().int().positive(),
  name: z.string(),
  /** The code printed on the packer's badge (`PDKS-` and 8 characters: src/shared/staff.ts). */
  badge: z.string(),
  hasPin: z.boolean(),
}));

export type StaffMember = z.infer<ReturnType<typeof staffMemberSchema>>;


/** Who is packing at this counter now, and whether the store keeps names at all. */
export const packerStatusSchema = builtOnce(() => z.object({
  packer: z.object({ id: z.number().int().positive(), name: z.string() }).nullable(),
  /** The store keeps a staff list; false: the counter's name stands in for every tap. */
  named: z.boolean(),
}));

export type PackerStatus = z.infer<ReturnType<typeof packerStatusSchema>>;


/** An order's scan-to-pack state: units scanned per item, and who marked it packed. */
export const packStateSchema = builtOnce(() => z.object({
  orderId: z.string(),
  items: z.array(z.object({ itemId: z.string(), scanned: z.number().int().min(0) })),
  /** The packer of the order's PACKED tap, at this counter or (heard through the store hub) another; null when nobody was signed in, or not packed. */
  packedBy: z.string().nullable(),
  /** The order was marked packed at this counter (by `packedBy`, or by the counter when that is null). */
  packedHere: z.boolean(),
  /** With a store hub: the name of the counter where it was marked packed (this one's or another's); null: not known, or no hub. */
  packedAt: z.string().nullable().optional(),
}));

export type PackState = z.infer<ReturnType<typeof packStateSchema>>;


/** What one scan on an order came to, and the order's counts after it. */
export const packScanSchema = builtOnce(() => z.object({
  outcome: z.enum(['ticked', 'tooMany', 'notInOrder', 'unknown']),
  itemId: z.string().optional(),
  /** notInOrder: the product's name and the orders on the terminal that hold it (at most three). */
  product: z.object({ name: z.string().max(500).nullable(), orderIds: z.array(z.string().max(128)).min(1).max(3) }).optional(),
  state: packStateSchema(),
}));

export type PackScanAnswer = z.infer<ReturnType<typeof packScanSchema>>;


/** The staff commands: name -> payload schema and result schema (built on first use by the contract). */
export const staffCommands = {
  /** The staff list (manager PIN): names, badges, whether each has a PIN. */
  'staff.list': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: z.array(staffMemberSchema()) }),
  /** Adds a packer (manager PIN), with a new badge and an optional personal PIN. */
  'staff.add': () => ({ payload: z.object({ pin: pinSchema(), name: packerNameSchema(), packerPin: packerPinSchema().optional() }).strict(), result: staffMemberSchema() }),
  /** Renames a packer, sets or clears (null) their PIN, or gives them a new badge (manager PIN). */
  'staff.update': () => ({
    payload: z
      .object({ pin: pinSchema(), id: z.number().int().positive(), name: packerNameSchema().optional(), packerPin: packerPinSchema().nullable().optional(), newBadge: z.boolean().optional() })
      .strict(),
    result: staffMemberSchema(),
  }),
  /** Takes a packer off the list (manager PIN). */
  'staff.remove': () => ({ payload: z.object({ pin: pinSchema(), id: z.number().int().positive() }).strict(), result: okSchema() }),
  /** Who is packing at this counter now. */
  'staff.current': () => ({ payload: emptySchema(), result: packerStatusSchema() }),
  /** A packer starts work: a scanned badge or a typed personal PIN (one scan switches packers). */
  'staff.signIn': () => ({
    payload: z.union([z.object({ badge: z.string().trim().min(1).max(64) }).strict(), z.object({ packerPin: packerPinSchema() }).strict()]),
    result: packerStatusSchema(),
  }),
  /** Nobody is packing at this counter now. */
  'staff.signOut': () => ({ payload: emptySchema(), result: packerStatusSchema() }),
  /** An order's scan-to-pack counts and who packed it. */
  'packing.get': () => ({ payload: z.object({ orderId: orderIdInputSchema() }).strict(), result: packStateSchema() }),
  /** A product code scanned on an order being packed. */
  'packing.scan': () => ({ payload: z.object({ orderId: orderIdInputSchema(), code: z.string().trim().min(1).max(128) }).strict(), result: packScanSchema() }),
  /** "Which item is this?": the store remembers the barcode as that item's, and one unit is ticked. */
  'packing.teach': () => ({
    payload: z.object({ orderId: orderIdInputSchema(), code: z.string().trim().min(1).max(128), itemId: idSchema() }).strict(),
    result: packScanSchema(),
  }),
};
