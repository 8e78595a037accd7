/**
 * Who is packing at this counter, in the top bar: the packer's name, or that taps are recorded as
 * the counter's. A badge scanned anywhere switches packers; the button signs in by PIN or out.
 */
import { useState } from 'react';
import { useWords } from '../../i18n/useWords';
import { usePacker } from '../../staff/store';
import { signOut } from '../../staff/intents';
import { SignInDialog } from './SignInDialog';
import { printableText } from '../../../../shared/protocol/orderId';

export function PackerChip() {
  const { t } = useWords();
  const status = usePacker((s) => s.status);
  const [signingIn, setSigningIn] = useState(false);
  // A store that runs without names (no staff list) sees no chip: taps are the counter's, as before,
  // and the top bar keeps its room for the find field at 1024 px.
  if (!status || !status.named) return null;
  const name = status.packer ? printableText(status.packer.name) : null;
  const words = name ? t('staff:chip.packing', { name }) : status.named ? t('staff:chip.nobody') : t('staff:chip.counter');
  return (
    <div className="packer-chip" data-testid="packer-chip" data-packer={name ?? ''}>
      <span className={name ? 'packer-chip-text' : 'packer-chip-text packer-chip-nobody'} role="status" title={words}>
        {/* On a narrow screen only the name shows (staff.css): "Packing:" would leave no room for it. */}
        {name ? <span className="packer-chip-label">{words.slice(0, Math.max(0, words.indexOf(name)))}</span> : null}
        {name ?? words}
      </span>
      {status.named &&
        (name ? (
          <button type="button" className="button button-small" onClick={() => void signOut()} data-testid="packer-sign-out">
            {t('staff:chip.signOut')}
          </button>
        ) : (
          <button type="button" className="button button-small" onClick={() => setSigningIn(true)} data-testid="packer-sign-in">
            {/* The short words on a 1024 px screen (topbar.css), where the whole sentence lay over the nav. */}
            <span className="wide-words">{t('staff:chip.signIn')}</span>
            <span className="narrow-words">{t('staff:chip.signInShort')}</span>
          </button>
        ))}
      {signingIn && <SignInDialog onClose={() => setSigningIn(false)} />}
    </div>
  );
}
