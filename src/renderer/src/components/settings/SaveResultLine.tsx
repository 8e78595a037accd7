/** What a settings form's save came to, beside its Save button: saved, or the refusal, worded in the language shown. */
import { useWords } from '../../i18n/useWords';
import type { SaveResult } from './useSettingsDraft';

export function SaveResultLine({ result, saved }: { result: SaveResult | null; saved: string }) {
  const { t, locale } = useWords();
  if (!result) return null;
  return (
    <span className={result.ok ? 'inline-ok' : 'inline-error'} role={result.ok ? 'status' : 'alert'}>
      {result.ok ? saved : result.words(t, locale)}
    </span>
  );
}
