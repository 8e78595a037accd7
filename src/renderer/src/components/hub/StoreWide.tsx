/** With a store hub: a setting that is the store's, not this counter's (every counter packs the same way; hub/store-settings.ts). */
import { useWords } from '../../i18n/useWords';
import { useHub } from '../../store/hub';

export function StoreWide() {
  const { t } = useWords();
  const inHub = useHub((s) => s.status !== null && s.status.role !== 'none');
  if (!inHub) return null;
  return (
    <p className="muted" data-testid="store-wide">
      {t('hub:storeWide')}
    </p>
  );
}
