/**
 * Runs in a worker of its own: makes one formatter of each kind the first screens use, so the
 * renderer process has ICU's data loaded (see warmIcu.ts), then ends.
 */
import { LANGUAGES } from '../../../shared/languages';

for (const { locale } of LANGUAGES) {
  new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(1234.5);
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'INR' }).format(1234.5);
  new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(0);
  new Intl.PluralRules(locale).select(2);
}
close();
