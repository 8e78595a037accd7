/**
 * A message a panel keeps (i18n/said.ts) as its line: worded in the language shown, so a switch
 * changes only its words in the same element; a status when it went well, an alert when not.
 * `look` is the pair of classes it takes (inline-ok / inline-error, form-ok / form-error).
 */
import type { Said } from '../i18n/said';
import { useWords } from '../i18n/useWords';

export function SaidLine({ said, look, testId }: { said: Said; look: 'inline' | 'form'; testId?: string }) {
  const { t, locale } = useWords();
  return (
    <p className={said.ok ? `${look}-ok` : `${look}-error`} role={said.ok ? 'status' : 'alert'} data-testid={testId}>
      {said.words(t, locale)}
    </p>
  );
}
