/**
 * The queue as a virtualised list: only the rows in view exist, so 5,000 orders scroll and
 * update as cheaply as 20. One focusable list with arrow keys (the rows are not each in the
 * Tab order, which would be useless with thousands of them).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useWords } from '../../i18n/useWords';
import { usePickSelection } from '../../print';
import { useOrders } from '../../store/orders';
import { showOrder } from '../../intents';
import { OrderRow } from './OrderRow';
import { QUEUE_OVERSCAN, ROW_HEIGHT } from '../../queue/rows';
import { windowHeight } from '../../viewport';

const rowDomId = (id: string) => `order-row-${id}`;

export function OrderList({ ids }: { ids: readonly string[] }) {
  const { t } = useWords();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [activeId, setActiveId] = useState<string | null>(null);

  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Drawn on the host (no window: firstScreen/) the rows in view are enough; the app's own list adds its overscan.
    overscan: typeof window === 'undefined' ? 0 : QUEUE_OVERSCAN,
    getItemKey: (index) => ids[index] ?? index,
    // Until the list is laid out its height is unknown, and with the default (0) the first render
    // has no rows: a forced layout, then a second render and layout, before the first rows show.
    // The window's height is an upper bound; the real one replaces it in the same commit.
    initialRect: { width: 0, height: windowHeight() },
  });

  const activeIndex = activeId === null ? -1 : ids.indexOf(activeId);

  const moveTo = (index: number) => {
    const clamped = Math.max(0, Math.min(ids.length - 1, index));
    const id = ids[clamped];
    if (id === undefined) return;
    setActiveId(id);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT) / ROW_HEIGHT) - 1);
    const from = activeIndex < 0 ? -1 : activeIndex;
    const moves: Record<string, number> = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      PageDown: from + page,
      PageUp: from - page,
      Home: 0,
      End: ids.length - 1,
    };
    const target = moves[e.key];
    if (target !== undefined) {
      e.preventDefault();
      moveTo(target);
    } else if (e.key === 'Enter' && activeIndex >= 0 && activeId !== null) {
      e.preventDefault();
      void showOrder(activeId);
    } else if (e.key === ' ' && activeIndex >= 0 && activeId !== null) {
      // Space ticks the active row for the pick list (as in any multi-choice list), once it has details.
      e.preventDefault();
      if (useOrders.getState().byId.get(activeId)?.facts) usePickSelection.getState().toggle(activeId);
    }
  };

  return (
    <div
      ref={scrollRef}
      className="queue-scroll"
      role="listbox"
      tabIndex={0}
      aria-label={t('common:queue.listLabel')}
      aria-activedescendant={activeIndex >= 0 && activeId !== null ? rowDomId(activeId) : undefined}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (activeIndex < 0 && ids.length > 0) setActiveId(ids[0] ?? null);
      }}
      data-testid="queue-list"
    >
      <div className="queue-canvas" role="presentation" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const id = ids[row.index];
          if (id === undefined) return null;
          return (
            <OrderRow
              key={id}
              id={id}
              domId={rowDomId(id)}
              top={row.start}
              index={row.index}
              total={ids.length}
              active={id === activeId}
              onOpen={() => void showOrder(id)}
            />
          );
        })}
      </div>
    </div>
  );
}
