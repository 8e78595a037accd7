/** Who worked on an order packed twice, in words: shared by the order's panel and the dock's line. */
import type { OrderConflict } from '../../../../shared/ipc';
import { formatList } from '../../format';
import type { useWords } from '../../i18n/useWords';

type T = ReturnType<typeof useWords>['t'];

/** "Ravi at Counter 1 and Priya at Counter 2" (a counter alone where nobody was signed in). */
export function conflictWho(t: T, locale: string, conflict: Pick<OrderConflict, 'parties'>): string {
  const list = (names: readonly string[]): string => formatList(names, locale);
  return list(conflict.parties.map((p) => (p.packers.length > 0 ? t('hub:conflict.party', { packers: list(p.packers), counter: p.counterName }) : p.counterName)));
}
