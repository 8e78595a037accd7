/**
 * Scan to pack: each item with the units scanned of the units to pack, once the order is accepted
 * and until it is packed. A product not in the order is shown here in red until the next good
 * scan; the questions scan to pack asks (which item a new barcode is, units still unscanned) open
 * from here.
 */
import { useEffect } from 'react';
import type { OrderView } from '../../../../shared/ipc';
import type { Order } from '../../../../shared/protocol/schemas';
import { useWords } from '../../i18n/useWords';
import { loadPack, strangerWords } from '../../packing/intents';
import { scannedOf, usePacking } from '../../packing/store';
import { TeachDialog } from './TeachDialog';
import { UnscannedDialog } from './UnscannedDialog';
import { printableText } from '../../../../shared/protocol/orderId';

export function PackChecklist({ view, order }: { view: OrderView; order: Order }) {
  const { t } = useWords();
  const state = usePacking((s) => s.states.get(order.id));
  const stranger = usePacking((s) => (s.stranger?.orderId === order.id ? s.stranger : null));
  const question = usePacking((s) => (s.question?.orderId === order.id ? s.question : null));
  useEffect(() => {
    void loadPack(order.id);
  }, [order.id]);
  const items = order.items.filter((i) => i.quantity.count > 0);
  const left = items.reduce((n, i) => n + Math.max(0, i.quantity.count - scannedOf(state, i.itemId)), 0);
  return (
    <section className="panel pack-panel" aria-labelledby="pack-title" data-testid="pack-checklist" data-left={left}>
      {/* The title and what is left share a line: three lines of the list stay in view at 768 px tall. */}
      <div className="pack-head">
        <h2 id="pack-title">{t('staff:pack.title')}</h2>
        <p className="hint" role="status" data-testid="pack-left">
          {/* What to tap next, as the big button says it: Start packing comes before Mark packed. */}
          {left > 0 ? t('staff:pack.left', { count: left }) : view.nextStep?.key === 'PACKING' ? t('staff:pack.allScannedStart') : t('staff:pack.allScanned')}
        </p>
      </div>
      {stranger !== null && (
        <p className="pack-stranger" role="alert" data-testid="pack-stranger">
          {strangerWords(t, stranger)}
        </p>
      )}
      <ul className="pack-list">
        {items.map((item) => {
          const scanned = scannedOf(state, item.itemId);
          const done = scanned >= item.quantity.count;
          return (
            <li key={item.itemId} className={done ? 'pack-row pack-done' : 'pack-row'} data-testid="pack-row" data-item-id={item.itemId} data-scanned={scanned}>
              <span className="pack-mark" aria-hidden="true">
                {done ? '✓' : '○'}
              </span>
              <span className="pack-name">{printableText(item.name ?? item.itemId)}</span>
              <span className="pack-count">{t('staff:pack.count', { scanned, count: item.quantity.count })}</span>
            </li>
          );
        })}
      </ul>
      {question?.kind === 'teach' && <TeachDialog view={view} order={order} code={question.code} />}
      {question?.kind === 'unscanned' && <UnscannedDialog order={order} />}
    </section>
  );
}
