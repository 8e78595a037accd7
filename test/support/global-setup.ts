/**
 * Runs once before the e2e tier: names the Chromium the end-to-end tests will drive, so a failure
 * that follows a Debian update of the browser is recognised from the first line of the run, and
 * starts that Chromium, the one every e2e file connects to (a fresh context per file). The
 * teardown closes it, so no browser outlives the run.
 */
import type { TestProject } from 'vitest/node';
import { chromiumVersion, launchChromiumServer } from './chromium';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  console.log(`End-to-end browser: ${chromiumVersion()}`);
  const server = await launchChromiumServer();
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
