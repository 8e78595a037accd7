/** SQL for scan to pack: units scanned per item of an order, and product barcodes the store was taught. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';

/** A barcode taught once: the item code it stands for. */
export interface TaughtCode {
  readonly code: string;
  readonly itemCode: string;
  readonly taughtAt: number;
  readonly packer: string | null;
}

const taughtSchema = builtOnce(() => z.object({ code: z.string(), item_code: z.string(), taught_at: z.number().int(), packer: z.string().nullable() }));
const scanSchema = builtOnce(() => z.object({ item_id: z.string(), scanned: z.number().int().min(0) }));

export type PackingTable = ReturnType<typeof createPackingTable>;

/** Prepared statements for scan to pack, wrapped in typed functions. */
export function createPackingTable(db: Database) {
  const s = {
    taught: db.prepare(`SELECT * FROM taught_codes WHERE code = ?`),
    allTaught: db.prepare(`SELECT * FROM taught_codes ORDER BY taught_at`),
    teach: db.prepare(
      `INSERT INTO taught_codes (code, item_code, taught_at, packer) VALUES (@code, @itemCode, @taughtAt, @packer)
       ON CONFLICT (code) DO UPDATE SET item_code = excluded.item_code, taught_at = excluded.taught_at, packer = excluded.packer`,
    ),
    scans: db.prepare(`SELECT item_id, scanned FROM pack_scans WHERE order_id = ?`),
    setScans: db.prepare(
      `INSERT INTO pack_scans (order_id, item_id, scanned, updated_at) VALUES (@orderId, @itemId, @scanned, @now)
       ON CONFLICT (order_id, item_id) DO UPDATE SET scanned = excluded.scanned, updated_at = excluded.updated_at`,
    ),
    clear: db.prepare(`DELETE FROM pack_scans WHERE order_id = ?`),
  };
  return {
    /** What a barcode was taught to stand for, or null. */
    taught(code: string): TaughtCode | null {
      const raw = s.taught.get(code);
      if (raw === undefined) return null;
      const r = taughtSchema().parse(raw);
      return { code: r.code, itemCode: r.item_code, taughtAt: r.taught_at, packer: r.packer };
    },
    /** Every barcode taught (the store hub puts them into the hub when a counter joins). */
    allTaught(): TaughtCode[] {
      return s.allTaught.all().map((raw) => {
        const r = taughtSchema().parse(raw);
        return { code: r.code, itemCode: r.item_code, taughtAt: r.taught_at, packer: r.packer };
      });
    },
    /** Remembers (or re-teaches) a barcode. */
    teach(t: TaughtCode): void {
      s.teach.run({ code: t.code, itemCode: t.itemCode, taughtAt: t.taughtAt, packer: t.packer });
    },
    /** Units scanned so far per item id of an order. */
    scans(orderId: string): Map<string, number> {
      return new Map(s.scans.all(orderId).map((raw) => {
        const r = scanSchema().parse(raw);
        return [r.item_id, r.scanned] as const;
      }));
    },
    setScans(orderId: string, itemId: string, scanned: number, now: number): void {
      s.setScans.run({ orderId, itemId, scanned, now });
    },
    /** Forgets an order's scans (it left the terminal). */
    clear(orderId: string): void {
      s.clear.run(orderId);
    },
  };
}
