/**
 * How many of an order's items are out of sight below, with a tap that brings the last into view:
 * at 1366x768 the Accept button left room for one item, and a packer must know the whole order
 * before accepting it. Nothing shows while every item is in view.
 */
import { useEffect, useState, type RefObject } from 'react';
import { useWords } from '../../i18n/useWords';

/** Counts the rows of `list` not wholly in view below it, kept current as the page scrolls or resizes. */
function useRowsOutOfView(list: RefObject<HTMLUListElement | null>, rows: number): number {
  const [hidden, setHidden] = useState(0);
  useEffect(() => {
    const el = list.current;
    if (!el) return;
    const out = new Set<Element>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          // Only rows below the fold count: once scrolled down, the rows gone above are not "below".
          const bottom = e.rootBounds?.bottom ?? window.innerHeight;
          if (e.intersectionRatio < 0.98 && e.boundingClientRect.bottom > bottom) out.add(e.target);
          else out.delete(e.target);
        }
        setHidden(out.size);
      },
      { threshold: [0, 0.98, 1] },
    );
    for (const row of el.children) observer.observe(row);
    return () => observer.disconnect();
  }, [list, rows]);
  return hidden;
}

export function ItemsBelow({ list, rows }: { list: RefObject<HTMLUListElement | null>; rows: number }) {
  const { t } = useWords();
  const hidden = useRowsOutOfView(list, rows);
  if (hidden === 0) return null;
  const showAll = () => list.current?.lastElementChild?.scrollIntoView({ block: 'end', behavior: 'smooth' });
  return (
    <button type="button" className="button items-below" onClick={showAll} data-testid="items-more">
      {t('order:items.below', { count: hidden, total: rows })}
    </button>
  );
}
