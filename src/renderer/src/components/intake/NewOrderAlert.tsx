/**
 * Sounds the new-order alert while any new order waits: at once when one arrives, then every
 * `alertRepeatMs` (default 20 s) until someone accepts or rejects it, or says "I have seen it"
 * (opening it is not enough). The manager can turn it down (alertVolume), never off: the general
 * "sounds" switch does not silence it during a shift.
 */
import { useCallback } from 'react';
import { playNewOrderAlert } from '../../feedback/alert';
import { useRepeatingSound } from '../../hooks/useRepeatingSound';
import { useNewOrders } from '../../store/newOrders';
import { useStatus } from '../../store/status';

export function NewOrderAlert() {
  const count = useNewOrders((s) => s.ids.length);
  const repeatMs = useStatus((s) => s.settings?.alertRepeatMs ?? 20_000);
  const volume = useStatus((s) => s.settings?.alertVolume ?? 1);
  useRepeatingSound(count, repeatMs, useCallback(() => playNewOrderAlert(volume), [volume]));
  return null;
}
