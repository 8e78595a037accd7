/**
 * Packaging step, run by `npm run package` before electron-builder: refuses an update feed the
 * packaged app would refuse at run time (src/main/core/update/feed.ts, the same rule). Without it,
 * an installer built with an http address installs fine and then says "updates are off" on every
 * terminal; this says so on the packaging machine instead.
 * Run: tsx build/check-feed.ts (reads PACKDESK_UPDATE_URL)
 */
import { feedAddressProblem } from '../src/main/core/update/feed';

/** Why PACKDESK_UPDATE_URL in `env` cannot be packaged as the update feed; null when it can. */
export function packagingFeedProblem(env: Readonly<Record<string, string | undefined>>): string | null {
  const url = env.PACKDESK_UPDATE_URL?.trim() ?? '';
  if (url === '') return 'PACKDESK_UPDATE_URL is not set: set it to the https address of the update feed.';
  if (/[\r\n]/.test(url)) return 'PACKDESK_UPDATE_URL must be one line.';
  // electron-builder writes it into app-update.yml as a generic feed's url: the app's rule for that address.
  const problem = feedAddressProblem(url);
  return problem === null ? null : `PACKDESK_UPDATE_URL cannot be the update feed: ${problem}.`;
}

if (process.argv[1]?.endsWith('check-feed.ts')) {
  const problem = packagingFeedProblem(process.env);
  if (problem !== null) {
    console.error(`Packaging stopped. ${problem}`);
    process.exitCode = 1;
  } else {
    console.log(`  • update feed ${process.env.PACKDESK_UPDATE_URL?.trim()}: https, no credentials`);
  }
}
