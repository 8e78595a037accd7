/**
 * Cut an item's units: a stepper between 0 and what the order holds now, and one of the reasons a
 * packer gives for a cut (prescription reasons only, and first, for prescription items).
 */
import { useMemo, useState } from 'react';
import { ITEM_UNIT_REASONS, findReason, reasonsFor } from '../../../../shared/protocol/reasons';
import type { Item } from '../../../../shared/protocol/schemas';
import { useWords } from '../../i18n/useWords';
import { tap } from '../../intents';
import { Dialog } from '../Dialog';
import { PIN_PATTERN, PinField } from '../PinField';
import { ReasonPicker } from '../ReasonPicker';

/**
 * `startAt`: the count the stepper starts at (scan to pack: the units scanned); one less than now by
 * default. `onSaved`, when given, is called instead of `onClose` once the cut is taken.
 */
export function UnitsDialog({ orderId, item, onClose, onSaved, startAt }: { orderId: string; item: Item; onClose: () => void; onSaved?: () => void; startAt?: number }) {
  const { t } = useWords();
  const current = item.quantity.count;
  const [units, setUnits] = useState(Math.min(current, Math.max(0, startAt ?? current - 1)));
  const [reason, setReason] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const reasons = useMemo(() => reasonsFor(ITEM_UNIT_REASONS, { prescription: item.prescriptionRequired === true }), [item]);
  const needsManager = reason !== null && findReason(ITEM_UNIT_REASONS, reason)?.needsManager === true;
  const ready = reason !== null && units !== current && (!needsManager || PIN_PATTERN.test(pin));

  const save = async () => {
    if (!ready || busy || reason === null) return;
    setBusy(true);
    const taken = await tap(orderId, { kind: 'units', itemId: item.itemId, units, reason }, needsManager ? pin : undefined);
    setBusy(false);
    if (taken) (onSaved ?? onClose)();
  };

  return (
    <Dialog
      title={t('order:units.title', { item: item.name ?? item.itemId })}
      onClose={onClose}
      testId="units-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('order:units.keep', { count: current })}
          </button>
          <button type="button" className="button button-primary" onClick={() => void save()} disabled={!ready || busy} data-testid="units-save">
            {reason === null ? t('order:units.chooseReason') : t('order:units.send', { count: units })}
          </button>
        </>
      }
    >
      <div className="stepper" role="group" aria-label={t('order:units.group')}>
        <button type="button" className="button stepper-button" onClick={() => setUnits((u) => Math.max(0, u - 1))} disabled={units <= 0} aria-label={t('order:units.less')}>
          −
        </button>
        <output className="stepper-value" aria-live="polite" data-testid="units-value">
          {units} <span className="stepper-of">{t('order:units.of', { count: current })}</span>
        </output>
        <button type="button" className="button stepper-button" onClick={() => setUnits((u) => Math.min(current, u + 1))} disabled={units >= current} aria-label={t('order:units.more')}>
          +
        </button>
      </div>
      <p className="hint">{units === 0 ? t('order:units.removed') : t('order:units.customerGets', { units, count: current })}</p>
      <ReasonPicker legend={t('order:units.why')} reasons={reasons} value={reason} onChange={setReason} />
      {needsManager && <PinField label={t('common:pin.manager')} value={pin} onChange={setPin} />}
    </Dialog>
  );
}
