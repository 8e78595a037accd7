/**
 * Versioned schema migrations. Each runs once, inside a transaction, and bumps `user_version`;
 * a file written by a newer Packdesk is refused rather than guessed at.
 */

export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** A phone's digits alone then '$', in SQL: the separators people and services write dropped. */
function phoneDigits(value: string): string {
  let sql = value;
  for (const c of [' ', '-', '+', '(', ')', '.']) sql = `replace(${sql}, '${c}', '')`;
  return `coalesce(${sql} || '$', '')`;
}

/**
 * The order_search columns (ids, customer, phone, invoice) of the orders row `row`, in SQL: the
 * billing name and phone, and the person and phone at every fulfilment's end (the queue's customer
 * is the billing name, else the first named person).
 */
function searchColumns(row: string): string {
  const body = `CASE WHEN json_valid(${row}.body) THEN ${row}.body END`;
  const ends = (path: string, each: (value: string) => string): string =>
    `coalesce((SELECT group_concat(${each(`json_extract(value, '${path}')`)}, '') FROM json_each(${body}, '$.fulfillments')), '')`;
  return [
    `'^' || ${row}.id || '$'`,
    `coalesce(' ' || json_extract(${body}, '$.billing.name'), '') || ${ends('$.end.person.name', (v) => `coalesce(' ' || ${v}, '')`)}`,
    `${phoneDigits(`json_extract(${body}, '$.billing.phone')`)} || ${ends('$.end.contact.phone', (v) => `' ' || ${phoneDigits(v)}`)}`,
    `coalesce('^' || json_extract(${body}, '$.clientOrderInfo.sellerInvoiceId') || '$', '')`,
  ].join(', ');
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE orders (
        id TEXT PRIMARY KEY,
        -- JSON of the order in the service's latest success response; NULL until the first answer.
        body TEXT,
        synced_at INTEGER,
        added_at INTEGER NOT NULL,
        -- The last 2xx answer could not be read: the cached body is older than the service's state.
        needs_refresh INTEGER NOT NULL DEFAULT 0,
        -- That unreadable answer, kept for support.
        raw_unreadable TEXT
      ) STRICT;

      -- No AUTOINCREMENT (it writes sqlite_sequence on every insert): rows are never deleted from
      -- the outbox, so an id is never reused anyway.
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL UNIQUE,
        order_id TEXT NOT NULL REFERENCES orders(id),
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'discarded')),
        created_at INTEGER NOT NULL,
        send_after INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,
        last_error TEXT,
        may_be_applied INTEGER NOT NULL DEFAULT 0,
        -- An earlier attempt ended without an answer (timeout, reset, crash while sending).
        no_answer_before INTEGER NOT NULL DEFAULT 0,
        sent_at INTEGER,
        -- Sent, but the answer was unreadable: still projected on the order until a readable answer arrives.
        awaiting_refresh INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        terminal_id TEXT NOT NULL,
        UNIQUE (order_id, seq)
      ) STRICT;
      -- Every index is one more page written per tap: (order_id, seq) above serves the per-order
      -- lookups, this one the queue scan and the counts.
      CREATE INDEX outbox_state ON outbox (state, created_at);
      -- Rarely any rows: sent entries whose answer was unreadable still shape their order's projection.
      CREATE INDEX outbox_awaiting ON outbox (order_id, seq) WHERE awaiting_refresh = 1;

      -- Append-only; ids grow with time, which is what pruning relies on (no index on time to write).
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        time INTEGER NOT NULL,
        terminal TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('tap', 'attempt', 'undo', 'retry', 'discard', 'recover')),
        entry_id INTEGER,
        order_id TEXT,
        outcome TEXT NOT NULL,
        message TEXT
      ) STRICT;
    `,
  },
  {
    version: 2,
    sql: `
      -- Which process sends this data file's queue: one row at most, taken and handed over inside an
      -- IMMEDIATE transaction so two processes that both find a dead holder cannot both take it.
      CREATE TABLE sender_lease (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        -- Unique to the holding engine (a process may open the same folder twice).
        holder TEXT NOT NULL,
        pid INTEGER NOT NULL,
        taken_at INTEGER NOT NULL
      ) STRICT;
      -- Order intake's own state, one row: the end of the last window read completely (the cursor),
      -- and a refusal of access that holds until the settings change. Apart from the outbox on purpose.
      CREATE TABLE intake (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        -- toTimestamp (service clock, epoch ms) of the last window whose every id was stored.
        cursor_to INTEGER,
        -- When that pass completed (this terminal's clock).
        last_pass_at INTEGER,
        -- What the service said when it refused this client a read call (403/404), or NULL.
        no_access TEXT,
        -- Which settings that refusal was said for; other settings clear it.
        no_access_settings TEXT
      ) STRICT;
      INSERT INTO intake (id) VALUES (1);
      -- A packer removed the order from the terminal (none of its taps reached the service, e.g. a
      -- code scanned that was no order). The row stays, because its outbox rows point at it.
      ALTER TABLE orders ADD COLUMN removed_at INTEGER;
    `,
  },
  {
    version: 3,
    sql: `
      -- Bumped by every write of an order's body, so a process can tell that the body it parsed
      -- earlier is still the stored one without reading the text again (a queue of 5,000 orders is
      -- about 23 MB of bodies). NULL in rows written before: the same as 0.
      ALTER TABLE orders ADD COLUMN body_rev INTEGER;
    `,
  },
  {
    version: 4,
    sql: `
      -- request_id loses its UNIQUE index: it was one more page written by every tap (a random key,
      -- so a random leaf) and no query looks a row up by it. A new entry's request_id carries its row
      -- id in its last 12 hex digits (outbox-table.ts requestIdFor), so the primary key keeps them unique.
      CREATE TABLE outbox_new (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL,
        order_id TEXT NOT NULL REFERENCES orders(id),
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'discarded')),
        created_at INTEGER NOT NULL,
        send_after INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,
        last_error TEXT,
        may_be_applied INTEGER NOT NULL DEFAULT 0,
        no_answer_before INTEGER NOT NULL DEFAULT 0,
        sent_at INTEGER,
        awaiting_refresh INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        terminal_id TEXT NOT NULL,
        UNIQUE (order_id, seq)
      ) STRICT;
      INSERT INTO outbox_new (id, request_id, order_id, seq, action, state, created_at, send_after, attempts, next_attempt_at,
                              last_error, may_be_applied, no_answer_before, sent_at, awaiting_refresh, updated_at, terminal_id)
        SELECT id, request_id, order_id, seq, action, state, created_at, send_after, attempts, next_attempt_at,
               last_error, may_be_applied, no_answer_before, sent_at, awaiting_refresh, updated_at, terminal_id
        FROM outbox;
      DROP TABLE outbox;
      ALTER TABLE outbox_new RENAME TO outbox;
      CREATE INDEX outbox_state ON outbox (state, created_at);
      CREATE INDEX outbox_awaiting ON outbox (order_id, seq) WHERE awaiting_refresh = 1;
    `,
  },
  {
    version: 5,
    sql: `
      -- The queue's listing (rows.ts ORDERS_LISTING_COLUMNS, in added_at order) read from this index
      -- alone. In the table every column after the body sits behind the body's overflow pages (a
      -- body is about 4.4 kB, longer than a 4 kB page), so listing 5,000 orders walked 23 MB of
      -- bodies for 200 kB of columns: 49 ms, 22 ms with the index (bench/ui-packer.ts's queue).
      CREATE INDEX orders_listing
        ON orders (added_at, id, body IS NOT NULL, body_rev, synced_at, needs_refresh, raw_unreadable, removed_at)
        WHERE removed_at IS NULL;
    `,
  },
  {
    version: 6,
    sql: `
      -- Ids that \`changes\` listed and intake has not stored yet (a \`status\` answer that failed,
      -- or not asked yet). The cursor may move past a window once its ids are here: an id leaves
      -- only when its body is stored, in the same transaction.
      CREATE TABLE intake_pending (
        order_id TEXT PRIMARY KEY,
        -- When \`changes\` first listed it (this terminal's clock).
        listed_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        -- Not asked again before this (backoff after a failed answer); 0: at the next pass.
        next_attempt_at INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      ) STRICT;
      -- The window being read, so a pass stopped by a rate limit resumes at the page it stopped at.
      ALTER TABLE intake ADD COLUMN window_from INTEGER;
      ALTER TABLE intake ADD COLUMN window_to INTEGER;
      ALTER TABLE intake ADD COLUMN window_next_page TEXT;
      ALTER TABLE intake ADD COLUMN window_pages INTEGER NOT NULL DEFAULT 0;
      -- Why the last pass left its window unfinished (a page cap, a nextPage seen before), or NULL.
      ALTER TABLE intake ADD COLUMN window_problem TEXT;
    `,
  },
  {
    version: 7,
    sql: `
      -- The order finder (order-search.ts): what a packer types to find an order (its id or last
      -- digits, the customer's name or phone, the invoice number) as FTS5 trigrams, so any part of
      -- them is found through the index, not by reading every body. Anchors make whole-id, id-ending,
      -- phone-ending and word-start matches exact: '^' and '$' around ids and invoices, '$' after
      -- each phone (digits only), ' ' before each name. Kept by triggers, so every writer of orders
      -- (engine, intake, CLI, salvage) keeps it. An index row has its order's rowid, so a trigger
      -- replaces it by rowid (a MATCH on the id cost 4 ms a write: every id shares 'ord'); searches
      -- name orders by the ids column, so they stay right should a VACUUM ever renumber orders.
      CREATE VIRTUAL TABLE order_search USING fts5(ids, customer, phone, invoice, tokenize = 'trigram');
      -- A customer's name and phone leave the index when their order leaves the terminal (retire.ts
      -- drops its details): without secure-delete FTS5 only marks them deleted, and the index would
      -- keep every trigram with its position until segments merge, enough to rebuild the words.
      INSERT INTO order_search (order_search, rank) VALUES ('secure-delete', 1);
      CREATE TRIGGER order_search_insert AFTER INSERT ON orders BEGIN
        INSERT INTO order_search (rowid, ids, customer, phone, invoice) VALUES (new.rowid, ${searchColumns('new')});
      END;
      CREATE TRIGGER order_search_update AFTER UPDATE OF id, body ON orders
        WHEN old.id IS NOT new.id OR old.body IS NOT new.body BEGIN
        DELETE FROM order_search WHERE rowid = old.rowid;
        INSERT INTO order_search (rowid, ids, customer, phone, invoice) VALUES (new.rowid, ${searchColumns('new')});
      END;
      CREATE TRIGGER order_search_delete AFTER DELETE ON orders BEGIN
        DELETE FROM order_search WHERE rowid = old.rowid;
      END;
      INSERT INTO order_search (rowid, ids, customer, phone, invoice) SELECT rowid, ${searchColumns('orders')} FROM orders;
    `,
  },
  {
    version: 8,
    sql: `
      -- Orders that left the terminal, by when: their rows (an id and times, no details) are dropped
      -- 180 days later once no tap of theirs is kept (outbox/retire.ts pruneHistory). Only rows off
      -- the terminal are in it, so neither a tap nor the queue's listing writes it.
      CREATE INDEX orders_gone ON orders (removed_at) WHERE removed_at IS NOT NULL;
    `,
  },
  {
    version: 9,
    sql: `
      -- An order this terminal had taps on was cancelled, or its items changed, by someone else (the
      -- marketplace, another counter): an alarm on screen until a person acknowledges it, kept here
      -- so a restart does not silence it. One row an order: its latest such change.
      CREATE TABLE order_alarms (
        order_id TEXT PRIMARY KEY REFERENCES orders(id),
        kind TEXT NOT NULL CHECK (kind IN ('cancelled', 'items')),
        -- When the service changed the order (its updatedAt, epoch ms).
        changed_at INTEGER NOT NULL,
        raised_at INTEGER NOT NULL,
        acknowledged_at INTEGER
      ) STRICT;
      CREATE INDEX order_alarms_open ON order_alarms (order_id) WHERE acknowledged_at IS NULL;
    `,
  },
  {
    version: 10,
    sql: `
      -- A unit cut's count before it, as this terminal showed the item when the cut was tapped: once
      -- the service's answer is stored the order only says the new count, and a packer must still
      -- read "was 3: Item unavailable" on the item and the slip. NULL for every other tap.
      ALTER TABLE outbox ADD COLUMN units_before INTEGER;
    `,
  },
  {
    version: 11,
    sql: `
      -- Every slip and pick list printed (or handed to the browser's print dialog), for the order's
      -- timeline. Appended in time order; pruned with the rest of the history after 180 days.
      CREATE TABLE prints (
        id INTEGER PRIMARY KEY,
        order_id TEXT NOT NULL,
        document TEXT NOT NULL CHECK (document IN ('packingSlip', 'pickList')),
        time INTEGER NOT NULL,
        terminal TEXT NOT NULL,
        outcome TEXT NOT NULL
      ) STRICT;
      CREATE INDEX prints_order ON prints (order_id, time);
      -- The shift's figures of each finished day (core/shift), written two days after the day ends
      -- and again before history pruning takes that day's taps: a retired order keeps no body (its
      -- promised times, whether it was cancelled) and a pruned tap no time, so the day's picture
      -- outlives them. One row a day and counter: the store-wide picture adds the counters' rows.
      CREATE TABLE daily_figures (
        day TEXT NOT NULL,
        terminal TEXT NOT NULL,
        figures TEXT NOT NULL,
        written_at INTEGER NOT NULL,
        PRIMARY KEY (day, terminal)
      ) STRICT;
      -- Orders by when they arrived, for a day's figures: written once per order (added_at never
      -- changes), so no tap writes it.
      CREATE INDEX orders_added ON orders (added_at);
    `,
  },
  {
    version: 12,
    sql: `
      -- Who made each tap and each audited move (issue 24): the packer signed in at the counter,
      -- as their name then (a name, not a staff id, so the record reads the same after the staff
      -- list changes). NULL: nobody was signed in (the counter's name stands in), or no person
      -- (the sender's own moves, the CLI).
      ALTER TABLE outbox ADD COLUMN packer TEXT;
      ALTER TABLE audit ADD COLUMN packer TEXT;
      -- The store's packers (Settings -> Staff). A badge is the code printed on the packer's card;
      -- pin_hash is scrypt(PIN, staff_key.salt): one salt for the store, so a typed PIN finds its
      -- packer with one derivation, and two packers can never share a PIN. NULL: no personal PIN.
      CREATE TABLE staff (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        badge TEXT NOT NULL UNIQUE,
        pin_hash TEXT UNIQUE,
        added_at INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX staff_name ON staff (name COLLATE NOCASE);
      CREATE TABLE staff_key (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        salt TEXT NOT NULL
      ) STRICT;
      -- Product barcodes taught once at a counter ("Which item is this?"): the store's own item
      -- code (serviceProviderItemId, else platformItemId) the barcode stands for.
      CREATE TABLE taught_codes (
        code TEXT PRIMARY KEY,
        item_code TEXT NOT NULL,
        taught_at INTEGER NOT NULL,
        packer TEXT
      ) STRICT;
      -- Scan to pack: units of each item scanned so far, so a restart keeps the count.
      CREATE TABLE pack_scans (
        order_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        scanned INTEGER NOT NULL CHECK (scanned >= 0),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (order_id, item_id)
      ) STRICT;
    `,
  },
  {
    version: 13,
    sql: `
      -- The staff list store-wide (the store hub): a packer is known across counters by uid, and
      -- the newest change (updated_at) wins. pin_salt is the salt the PIN hash was made with: a
      -- packer added at another counter keeps that counter's salt (the PIN itself is never known
      -- to travel again). NULL: this file's staff_key salt (packers added before this version).
      ALTER TABLE staff ADD COLUMN uid TEXT;
      ALTER TABLE staff ADD COLUMN updated_at INTEGER;
      ALTER TABLE staff ADD COLUMN pin_salt TEXT;
      UPDATE staff SET uid = lower(hex(randomblob(16))), updated_at = added_at;
      CREATE UNIQUE INDEX staff_uid ON staff (uid);
      -- Packers taken off the list: kept so that a counter that was away does not bring one back.
      CREATE TABLE staff_removed (
        uid TEXT PRIMARY KEY,
        removed_at INTEGER NOT NULL
      ) STRICT;
      -- Other counters' counted taps (the shift's moments), heard through the store hub, so the
      -- Shift screen shows the store's figures from this file even with the hub away. counted 0:
      -- taken back or refused there after it was first heard.
      CREATE TABLE store_taps (
        counter_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        counter_name TEXT NOT NULL,
        order_id TEXT NOT NULL,
        moment TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        packer TEXT,
        counted INTEGER NOT NULL,
        heard_at INTEGER NOT NULL,
        PRIMARY KEY (counter_id, request_id)
      ) STRICT;
      CREATE INDEX store_taps_time ON store_taps (created_at);
      CREATE INDEX store_taps_order ON store_taps (order_id);
    `,
  },
  {
    version: 14,
    sql: `
      -- The per-day figures are kept for good, so they are kept small (core/shift/kept.ts): a row a
      -- month and counter, its days' values deflated together (BLOB, a few bytes to a couple of
      -- hundred a day, where a day's JSON text was 1.2-2.5 kB and a row of its own). TEXT: a JSON
      -- object of the days kept before this version ("DD": that day's report as it was kept), read
      -- as they were and deflated by core/shift keepDays. last_day: the latest day in the row.
      -- WITHOUT ROWID: the key is the table's own b-tree, not stored again in an index.
      CREATE TABLE figures_by_month (
        month TEXT NOT NULL,
        terminal TEXT NOT NULL,
        figures ANY NOT NULL CHECK (typeof(figures) IN ('blob', 'text')),
        last_day TEXT NOT NULL,
        written_at INTEGER NOT NULL,
        PRIMARY KEY (month, terminal)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO figures_by_month (month, terminal, figures, last_day, written_at)
        SELECT substr(day, 1, 7), terminal,
          json_group_object(substr(day, 9, 2), CASE WHEN json_valid(figures) THEN json(figures) ELSE figures END),
          MAX(day), MAX(written_at)
        FROM daily_figures GROUP BY substr(day, 1, 7), terminal;
      DROP TABLE daily_figures;
    `,
  },
  {
    version: 15,
    sql: `
      -- When this terminal last asked \`changes\` for a window's first page (the call the service
      -- rate-limits), the time before which the service asked not to be called again (Retry-After),
      -- and the last answer to \`changes\` (a pass's result or doctor's access check, JSON: at, by,
      -- ok, kind, message, settings): doctor says that rather than make a call the service would
      -- refuse. changes_settings: the settings (address, provider id) that call was made with.
      ALTER TABLE intake ADD COLUMN changes_asked_at INTEGER;
      ALTER TABLE intake ADD COLUMN changes_settings TEXT;
      ALTER TABLE intake ADD COLUMN changes_not_before INTEGER;
      ALTER TABLE intake ADD COLUMN last_read TEXT;
    `,
  },
  {
    version: 16,
    sql: `
      -- With a store hub (issue 39): whether the tap was made while other counters could not be
      -- checked (the hub away or slow): 1 until this counter, back with the hub, has looked for
      -- another counter holding the order (core/hub/conflicts.ts), 2 after; 0 checked; NULL no hub.
      -- hub_seen: JSON array of the other counters' taps on the order heard of when it was made.
      ALTER TABLE outbox ADD COLUMN hub_unchecked INTEGER;
      ALTER TABLE outbox ADD COLUMN hub_seen TEXT;
      CREATE INDEX outbox_hub_unchecked ON outbox (order_id) WHERE hub_unchecked = 1;
      -- Other counters' taps heard through the store hub, all of them: an order's timeline, a slip's
      -- "packed by" and cuts, and finding taps made apart read them here, hub or no hub.
      CREATE TABLE hub_taps (
        counter_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        order_id TEXT NOT NULL,
        counter_name TEXT NOT NULL,
        packer TEXT,
        action TEXT NOT NULL,
        summary TEXT NOT NULL,
        state TEXT NOT NULL,
        queued_at INTEGER NOT NULL,
        sent_at INTEGER,
        unchecked INTEGER NOT NULL,
        seen TEXT,
        units_before INTEGER,
        heard_at INTEGER NOT NULL,
        PRIMARY KEY (counter_id, request_id)
      ) STRICT;
      CREATE INDEX hub_taps_order ON hub_taps (order_id);
      CREATE INDEX hub_taps_time ON hub_taps (queued_at);
      -- Orders packed twice while counters could not see each other: the record as the hub carries
      -- it (JSON), when this counter first raised it, when a person here said the items are back,
      -- and whether the hub holds this counter's latest word on it.
      CREATE TABLE order_conflicts (
        order_id TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        raised_at INTEGER NOT NULL,
        put_back_at INTEGER,
        shared INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 17,
    sql: `
      -- Every answer to a tap stores its order's body anew, but what the finder reads from the body
      -- (ids, names, phones, the invoice) changes only with an invoice or a new address: the index
      -- row is rewritten only when those differ. Rewriting it takes the old words out with
      -- secure-delete, about 2 ms an order, which was most of what a tap's answer cost to record.
      DROP TRIGGER order_search_update;
      CREATE TRIGGER order_search_update AFTER UPDATE OF id, body ON orders
        WHEN old.id IS NOT new.id
          OR (old.body IS NOT new.body AND (${searchColumns('old')}) IS NOT (${searchColumns('new')})) BEGIN
        DELETE FROM order_search WHERE rowid = old.rowid;
        INSERT INTO order_search (rowid, ids, customer, phone, invoice) VALUES (new.rowid, ${searchColumns('new')});
      END;
    `,
  },
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
