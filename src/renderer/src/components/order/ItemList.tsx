/** The items to pack: picture, name, measurement, units and price, with a way to cut units. */
import { type ReactNode, useRef, useState } from 'react';
import type { ItemCut } from '../../../../shared/ipc';
import type { Item, Order } from '../../../../shared/protocol/schemas';
import { formatPrice } from '../../format';
import { reasonWords } from '../../i18n/words';
import { useWords } from '../../i18n/useWords';
import { PrescriptionBadge } from '../PrescriptionBadge';
import { ItemPicture } from './ItemPicture';
import { ItemsBelow } from './ItemsBelow';
import { UnitsDialog } from './UnitsDialog';
import { printableText } from '../../../../shared/protocol/orderId';

export function ItemList({
  order,
  editable,
  cuts = [],
  beforeEdit = (run) => run(),
  held = null,
}: {
  order: Order;
  editable: boolean;
  cuts?: readonly ItemCut[] | undefined;
  /** Runs before the units dialog opens: with a store hub, Take over is asked first on an order held elsewhere. */
  beforeEdit?: (run: () => void) => void;
  /** Why changing units waits (the order is held at another counter), shown above the items. */
  held?: ReactNode;
}) {
  const { t, locale } = useWords();
  const [editing, setEditing] = useState<Item | null>(null);
  const total = order.quote?.price?.value;
  const list = useRef<HTMLUListElement>(null);
  return (
    <section className="panel items-panel" aria-labelledby="items-title">
      <div className="items-head">
        <h2 id="items-title">
          {t('order:items.title')}{' '}
          <span className="muted" data-testid="items-count">
            ({order.items.length})
          </span>
        </h2>
        <ItemsBelow list={list} rows={order.items.length} />
      </div>
      {held}
      <ul className="item-list" ref={list}>
        {order.items.map((item) => {
          const cut = cuts.find((c) => c.itemId === item.itemId);
          return (
          <li key={item.itemId} className="item-row" data-testid="item-row" data-item-id={item.itemId}>
            <ItemPicture item={item} />
            <div className="item-main">
              <div className="item-name">{printableText(item.name ?? item.itemId)}</div>
              <div className="item-facts">
                {item.displayMeasurement && <span>{item.displayMeasurement}</span>}
                {item.prescriptionRequired && <PrescriptionBadge />}
              </div>
              {cut && (
                <div className="item-was" data-testid="item-was">
                  {t('order:items.was', { count: cut.was, reason: reasonWords(t, cut.reason) })}
                </div>
              )}
            </div>
            <div className="item-units" aria-label={t('common:order.units', { count: item.quantity.count })}>
              <span className="item-units-number">{item.quantity.count}</span>
              <span className="item-units-word">{t('order:items.unitWord', { count: item.quantity.count })}</span>
            </div>
            <div className="item-side">
              <div className="item-price">
                <span className="item-price-each">{t('order:items.each', { price: formatPrice(item.sellingPrice?.value ?? item.price?.value, locale) })}</span>
                {item.price && item.sellingPrice && item.price.value !== item.sellingPrice.value && (
                  <span className="item-price-mrp">{t('order:items.mrp', { price: formatPrice(item.price.value, locale) })}</span>
                )}
              </div>
              {editable && (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => beforeEdit(() => setEditing(item))}
                  disabled={item.quantity.count === 0}
                  data-testid="change-units"
                >
                  {t('order:items.changeUnits')}
                </button>
              )}
            </div>
          </li>
          );
        })}
      </ul>
      {total !== undefined && (
        <div className="order-total">
          {t('order:items.total')} <strong>{formatPrice(total, locale)}</strong>
        </div>
      )}
      {editing && <UnitsDialog orderId={order.id} item={editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
