import type { ReactNode } from 'react';

/** A whole-window message: starting up, or the app cannot work at all. Never a stack trace. */
export function FullScreenMessage({ title, children, waiting = false }: { title: string; children: ReactNode; waiting?: boolean }) {
  return (
    <main className="fullscreen-message" role={waiting ? 'status' : 'alert'}>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
