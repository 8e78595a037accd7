/**
 * A packer signed in at this counter and at another one at the same time (a badge scanned at the
 * next counter, a sign-out forgotten): taps at both would name them. Every counter concerned says
 * so in the dock, on every screen, until one of them signs out. The other counters' packers come
 * with their presence through the store hub (names are one per store).
 */
import type { HubStatus } from '../../../../shared/hub';
import { formatList } from '../../format';
import { counterName } from '../../i18n';
import { useWords } from '../../i18n/useWords';
import { useHub } from '../../store/hub';
import { usePacker } from '../../staff/store';
import { printableText } from '../../../../shared/protocol/orderId';

/** The other counters, there now, where `packer` is signed in too; joined by new lines (selectors compare it by value). */
export function alsoSignedInAt(status: HubStatus | null, packer: string | null): string {
  if (!status || packer === null) return '';
  return status.counters
    .filter((c) => !c.isThisCounter && c.present && c.packer === packer)
    .map((c) => c.counterName)
    .join('\n');
}

export function SignedInTwiceLine() {
  const { t, locale } = useWords();
  const packer = usePacker((s) => s.status?.packer?.name ?? null);
  const elsewhere = useHub((s) => alsoSignedInAt(s.status, packer));
  if (packer === null || elsewhere === '') return null;
  const counters = formatList(elsewhere.split('\n').map((c) => counterName(c)), locale);
  return (
    <div className="signed-in-twice" role="alert" data-testid="signed-in-twice" data-packer={packer}>
      <span aria-hidden="true">⚠ </span>
      {t('staff:twice', { name: printableText(packer), counters })}
    </div>
  );
}
