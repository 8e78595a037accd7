/**
 * Runs once before the suite: names the Chromium the end-to-end tests will drive, so a failure
 * that follows a Debian update of the browser is recognised from the first line of the run.
 */
import { chromiumVersion } from './chromium';

export default function setup(): void {
  console.log(`End-to-end browser: ${chromiumVersion()}`);
}
