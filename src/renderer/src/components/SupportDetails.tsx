/**
 * "Details for support": what a support person needs (the service's own words, codes, HTTP
 * statuses, addresses) kept folded away under the plain words a packer or manager reads.
 */
import type { ReactNode } from 'react';
import { useWords } from '../i18n/useWords';

export function SupportDetails({ children, testId }: { children: ReactNode; testId?: string }) {
  const { t } = useWords();
  return (
    <details className="support-details" data-testid={testId}>
      <summary>{t('common:details.summary')}</summary>
      <div className="support-details-body" lang="en">
        {children}
      </div>
    </details>
  );
}
