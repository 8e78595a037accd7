/**
 * The e2e run's one Chromium (started by test/support/global-setup.ts), reached from a test file.
 * Apart from test/support/chromium.ts because it reads what vitest provides, and benchmarks load
 * that module outside vitest.
 */
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { launchChromium } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the run's shared Chromium (test/support/global-setup.ts). */
    chromiumEndpoint: string;
  }
}

/**
 * The run's shared Chromium, through a connection of this file's own: the contexts and pages it
 * opens are this file's alone, and `close()` closes them and disconnects, leaving the browser to
 * the other files. Outside the e2e project (no shared browser provided) it launches one of its own.
 *
 * Shown scrollbars (`scrollbars: true`, see launchChromium) are a flag of the whole browser, so a
 * file that asks for them gets a browser of its own.
 */
export function connectChromium(options: { scrollbars?: boolean } = {}): Promise<Browser> {
  const endpoint = options.scrollbars ? undefined : inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium(options);
}
