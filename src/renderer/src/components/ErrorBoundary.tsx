/**
 * If a screen fails to draw, the packer gets plain words and a way back to the queue; the
 * details go to the console for support, never onto the screen.
 */
import { Component, type ReactNode } from 'react';
import { useWords } from '../i18n/useWords';
import { useUi } from '../store/ui';

interface State {
  failed: boolean;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A screen failed to draw', error);
  }

  private readonly recover = (): void => {
    useUi.getState().show({ name: 'queue' });
    this.setState({ failed: false });
  };

  override render() {
    if (!this.state.failed) return this.props.children;
    return <ScreenFailed onBack={this.recover} />;
  }
}

/** The words, in a function component of their own: they follow a language switch (the top bar stays in reach). */
function ScreenFailed({ onBack }: { onBack: () => void }) {
  const { t } = useWords();
  return (
    <main className="screen screen-problem" role="alert">
      <h1>{t('common:screenFailed.title')}</h1>
      <p>{t('common:screenFailed.safe')}</p>
      <button type="button" className="button button-primary" onClick={onBack}>
        {t('common:screenFailed.back')}
      </button>
    </main>
  );
}
