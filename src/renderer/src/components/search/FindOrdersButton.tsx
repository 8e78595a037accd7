/**
 * The way from the queue to the Orders search (also F3 anywhere): beside the pick list, as the top
 * bar has no room left at 1024 px once a packer is signed in.
 */
import { useWords } from '../../i18n/useWords';
import { useUi } from '../../store/ui';

export function FindOrdersButton() {
  const { t } = useWords();
  const show = useUi((s) => s.show);
  return (
    <button type="button" className="button" onClick={() => show({ name: 'search' })} aria-keyshortcuts="F3" data-testid="nav-search">
      {t('search:nav')}
    </button>
  );
}
