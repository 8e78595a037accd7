/**
 * The packer's one-tap language switch: a button for each other language, named in that
 * language ("हिन्दी", "English"), so someone who cannot read the current one still finds theirs.
 * It changes the language for this shift only (see store/language.ts); the terminal's own language
 * is a manager's setting.
 */
import { LANGUAGES } from '../../../shared/languages';
import { useWords } from '../i18n/useWords';
import { useLanguage } from '../store/language';
import { useStatus } from '../store/status';

export function LanguageSwitch() {
  const { t } = useWords();
  const shift = useLanguage((s) => s.shift);
  const terminal = useStatus((s) => s.settings?.language ?? 'en');
  const shown = shift ?? terminal;
  const choose = useLanguage((s) => s.chooseForShift);
  return (
    <div className="language-switch" role="group" aria-label={t('common:language.switchLabel')}>
      {LANGUAGES.filter((l) => l.code !== shown).map((l) => (
        <button
          key={l.code}
          type="button"
          className="nav-button language-button"
          lang={l.locale}
          onClick={() => choose(l.code)}
          data-testid={`language-${l.code}`}
          title={t('common:language.forShift')}
        >
          <span className="language-name">{l.name}</span>
        </button>
      ))}
    </div>
  );
}
