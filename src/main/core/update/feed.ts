/**
 * The update feed a packaged build reads (electron-builder's `app-update.yml`), checked before
 * electron-updater is let near it: the installers' only integrity check on Linux is the sha512 in
 * the feed's latest*.yml, so the feed must come over https from where the build says.
 */
import { z } from 'zod';

const FeedUrl = z.url();

/** The value of a top-level `key: value` line of a flat YAML file, unquoted; null when absent. */
function topLevel(yaml: string, key: string): string | null {
  const line = yaml.split(/\r?\n/).find((l) => l.startsWith(`${key}:`));
  if (line === undefined) return null;
  const raw = line.slice(key.length + 1).trim();
  return raw.replace(/^(['"])(.*)\1$/, '$2');
}

/** Host names that are this computer: the only place a practice feed over http may be. */
const THIS_COMPUTER = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface FeedAddressRules {
  /**
   * Training only: a practice feed over http on this computer (127.0.0.1) is accepted. Nothing
   * from another machine ever comes over http.
   */
  readonly localHttp?: boolean;
}

/**
 * Why `url` cannot be the address of the update feed, as a sentence without its end; null when it
 * may. Also the packaging step's rule (build/check-feed.ts), so the two never differ.
 */
export function feedAddressProblem(url: string, rules: FeedAddressRules = {}): string | null {
  const parsed = FeedUrl.safeParse(url);
  if (!parsed.success) return 'The update feed address is not a web address';
  const address = new URL(parsed.data);
  const practice = rules.localHttp === true && address.protocol === 'http:' && THIS_COMPUTER.has(address.hostname);
  if (address.protocol !== 'https:' && !practice) return 'The update feed address must be https (installers are checked against checksums read from it)';
  if (address.username || address.password) return 'The update feed address must not contain a user name or password';
  return null;
}

/** The feed address an `app-update.yml` names, or null. */
export function feedUrlOf(appUpdateYml: string | null): string | null {
  return appUpdateYml === null ? null : topLevel(appUpdateYml, 'url');
}

/** Why this `app-update.yml` (its text, or null when missing) must not be used; null when it may. */
export function feedProblem(appUpdateYml: string | null, rules: FeedAddressRules = {}): string | null {
  const off = (why: string): string => `${why}; updates are off.`;
  if (appUpdateYml === null) return off('This build has no update feed configured');
  const provider = topLevel(appUpdateYml, 'provider');
  if (provider !== 'generic') return off(`The update feed must be a generic https feed (this build names "${provider ?? 'none'}")`);
  const address = feedAddressProblem(topLevel(appUpdateYml, 'url') ?? '', rules);
  return address === null ? null : off(address);
}
