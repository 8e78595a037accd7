/** The store: the only place with SQL. */
export { openStore, dataFilePath, DATA_FILE_NAME, type Store, type OpenStoreOptions } from './store';
export { checkLater, markDamaged, type LaterCheck, type LaterCheckResult } from './later-check';
export { SCHEMA_VERSION } from './migrations';
export { describeSalvage, type SalvageReport } from './salvage';
export type { EntryRow, OrderRow, AuditRow, AuditKind, ShapingEntry } from './rows';
export { AUDIT_KINDS, deepFreeze } from './rows';
export type { CutRow, EntryPatch, NewEntry, OutboxCounts, OutboxTable } from './outbox-table';
export type { LeaseRow, LeaseTable } from './lease-table';
export type { OrdersTable } from './orders-table';
export type { AuditLine, AuditTable } from './audit-table';
export { damageIn, storageProblem } from './storage-error';
export type { IntakeState, IntakeTable, IntakeWindow, PendingId } from './intake-table';
export { searchPlan, type Found, type OrderSearch, type Searched } from './order-search';
export type { AlarmKind, AlarmRow, AlarmsTable } from './alarms-table';
export { packerOf, type DayTap, type HistoryOrder, type HistoryTable, type HistoryTap, type Moment, type PrintRow } from './history-table';
export type { StaffRow, StaffTable } from './staff-table';
export type { PackingTable, TaughtCode } from './packing-table';
