/** Checks the token server and order service addresses a manager types in. */
import { fail, ok, type Result } from '../../../shared/result';
import type { Environment } from '../../../shared/ipc';

/**
 * Accepts an http(s) address without user info, query or fragment and returns it without a
 * trailing slash. Production must use https: the client secret and tokens travel on it.
 */
export function checkAddress(environment: Environment, label: string, value: string): Result<string> {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return fail('invalid', `The ${label} address is not a web address (it should start with https://).`, 'ADDRESS_INVALID', { address: label });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return fail('invalid', `The ${label} address must start with https://.`, 'ADDRESS_SCHEME', { address: label });
  if (environment === 'production' && url.protocol !== 'https:')
    return fail('invalid', `The production ${label} address must start with https://.`, 'ADDRESS_NOT_HTTPS', { address: label });
  if (url.username || url.password)
    return fail('invalid', `The ${label} address must not contain a user name or password.`, 'ADDRESS_USERINFO', { address: label });
  // The parser drops an empty "?" or "#" (`https://host/?` has no search), but the address typed
  // still carries one: refused as docs/cli.md says, not quietly sent to another path.
  if (url.search || url.hash || /[?#]/.test(value))
    return fail('invalid', `The ${label} address must not contain "?" or "#" parts.`, 'ADDRESS_QUERY', { address: label });
  return ok(url.toString().replace(/\/+$/, ''));
}
