/**
 * Mark packed with units still unscanned: scan the rest, or cut the missing units (the unit cut as
 * anywhere else, with its reason), item by item. Once a cut leaves nothing unscanned, Mark packed
 * goes on by itself (the packer asked for it; before, it had to be tapped a second time); while
 * other items are still missing units, the list shows again.
 */
import { useState } from 'react';
import type { Item, Order } from '../../../../shared/protocol/schemas';
import { useWords } from '../../i18n/useWords';
import { unscanned } from '../../packing/intents';
import { usePacking } from '../../packing/store';
import { Dialog } from '../Dialog';
import { UnitsDialog } from './UnitsDialog';

export function UnscannedDialog({ order }: { order: Order }) {
  const { t } = useWords();
  const [cutting, setCutting] = useState<{ item: Item; to: number } | null>(null);
  const close = () => usePacking.getState().ask(null);
  const missing = unscanned(order);
  if (cutting)
    return (
      <UnitsDialog
        orderId={order.id}
        item={cutting.item}
        startAt={cutting.to}
        onClose={() => setCutting(null)}
        onSaved={() => {
          setCutting(null);
          // The cut is on screen at once (the tap's foreseen view): what is still missing, if anything.
          if (missing.length <= 1) {
            close();
            usePacking.getState().goOnPacking(order.id);
          }
        }}
      />
    );
  return (
    <Dialog
      title={t('staff:unscanned.title')}
      onClose={close}
      testId="unscanned-dialog"
      actions={
        <button type="button" className="button button-primary" onClick={close} data-testid="unscanned-scan">
          {t('staff:unscanned.scanRest')}
        </button>
      }
    >
      <p>{t('staff:unscanned.text')}</p>
      <ul className="unscanned-list">
        {missing.map(({ item, missing: n }) => (
          <li key={item.itemId} className="unscanned-row" data-testid="unscanned-row" data-item-id={item.itemId}>
            <span>{t('staff:unscanned.row', { item: item.name ?? item.itemId, count: n })}</span>
            <button
              type="button"
              className="button button-small"
              onClick={() => setCutting({ item, to: item.quantity.count - n })}
              data-testid="unscanned-cut"
            >
              {t('staff:unscanned.cut', { count: n })}
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
