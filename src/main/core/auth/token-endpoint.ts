/**
 * One call to the token server (spec endpoints 1 and 2), with the answer sorted into granted,
 * refused (the server said no: wrong credentials or a bad refresh token) and transient (it could
 * not say anything useful now). Decisions about what to do next live in the token manager.
 */
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import { describeZodError, errorResponseSchema, type TokenResponse, tokenResponseSchema } from '../../../shared/protocol/schemas';
import { describeBytes, describeNetworkFailure, hostOf, joinUrl, readCappedBody, startDeadline, type Timers } from '../api/http';
import type { SecretRegistry } from '../log/redact';
import type { ClientCredentials } from './vault';

/** Path of the token endpoint under `{auth_url}`. */
export const TOKEN_PATH = '/olympus/im/v1/oauth/token';

export type TokenGrant =
  | { readonly grantType: 'client_credentials' }
  | { readonly grantType: 'refresh_token'; readonly accessToken: string; readonly refreshToken: string };

export type TokenAnswer =
  | { readonly kind: 'granted'; readonly token: TokenResponse; readonly receivedAt: number }
  | { readonly kind: 'refused'; readonly status: number; readonly reason: string }
  | {
      readonly kind: 'transient';
      readonly status?: number;
      readonly message: string;
      /**
       * True when the address answers like no token server (redirect, 404, 405): retrying will not
       * help until a person fixes the configured address.
       */
      readonly misdirected?: true;
      /**
       * True when a token was issued that can never be used (it cannot go in an HTTP header): a
       * fault of the token server that retrying will not mend, so a person must look at it.
       */
      readonly unusable?: true;
      /** True when this computer does not trust the token server's certificate: a person must look at it. */
      readonly certificate?: true;
    };

export interface TokenRequestContext {
  readonly authUrl: string;
  readonly fetch: typeof fetch;
  readonly timers: Timers;
  readonly now: () => number;
  readonly timeoutMs: number;
  readonly secrets: SecretRegistry;
  readonly signal?: AbortSignal;
  /** The most of an answer that is read. Default 256 KiB (a token answer is well under 1 KiB). */
  readonly maxBodyBytes?: number;
}

const DEFAULT_MAX_TOKEN_BODY = 256 * 1024;

// The spec does not show the token server's error body; accept the spec's error shape and OAuth's.
const oAuthErrorSchema = builtOnce(() => z.looseObject({ error: z.string(), error_description: z.string().optional() }));

function refusalReason(body: string, status: number, secrets: SecretRegistry): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `HTTP ${status}`;
  }
  const spec = errorResponseSchema().safeParse(json);
  if (spec.success) return secrets.redactText(`HTTP ${status}, ${spec.data.error.errorCode}: ${spec.data.error.message}`).slice(0, 300);
  const oauth = oAuthErrorSchema().safeParse(json);
  if (oauth.success)
    return secrets
      .redactText(`HTTP ${status}, ${oauth.data.error}${oauth.data.error_description ? `: ${oauth.data.error_description}` : ''}`)
      .slice(0, 300);
  return `HTTP ${status}`;
}

// RFC 9110 token characters for the scheme, visible ASCII for the credentials: anything else
// (CR, LF, control or non-ASCII characters) cannot be sent in the Authorization header.
const HEADER_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_CREDENTIALS = /^[\x21-\x7E]+$/;

/** Why a granted token cannot be put in an Authorization header, or null when it can. */
export function headerUnsafe(token: Pick<TokenResponse, 'token_type' | 'access_token'>): string | null {
  if (!HEADER_SCHEME.test(token.token_type)) return 'its token_type has a line break or other character not allowed in an HTTP header';
  if (!HEADER_CREDENTIALS.test(token.access_token)) return 'its access_token has a character not allowed in an HTTP header';
  return null;
}

/** The form body of a token request, exactly the fields the spec lists for the grant. */
export function tokenForm(credentials: ClientCredentials, grant: TokenGrant): URLSearchParams {
  const form = new URLSearchParams({
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    grant_type: grant.grantType,
  });
  if (grant.grantType === 'refresh_token') {
    form.set('token', grant.accessToken);
    form.set('refresh_token', grant.refreshToken);
  }
  return form;
}

/** Asks the token server for a token; never throws. */
export async function requestToken(
  credentials: ClientCredentials,
  grant: TokenGrant,
  context: TokenRequestContext,
): Promise<TokenAnswer> {
  const url = joinUrl(context.authUrl, TOKEN_PATH);
  const deadline = startDeadline(context.timeoutMs, context.timers, context.signal);
  let status: number;
  let body: string;
  let overCap: boolean;
  const maxBytes = context.maxBodyBytes ?? DEFAULT_MAX_TOKEN_BODY;
  try {
    const response = await context.fetch(url, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: tokenForm(credentials, grant).toString(),
      signal: deadline.signal,
      redirect: 'manual',
    });
    status = response.status;
    ({ text: body, overCap } = await readCappedBody(response, maxBytes));
  } catch (error) {
    const failure = describeNetworkFailure(error, { what: 'The token server', url, deadline, timeoutMs: context.timeoutMs });
    return failure.cause === 'certificate' ? { kind: 'transient', message: failure.message, certificate: true } : { kind: 'transient', message: failure.message };
  } finally {
    deadline.done();
  }
  const receivedAt = context.now();

  if (status >= 200 && status <= 299) {
    if (overCap)
      return {
        kind: 'transient',
        status,
        message: `The token server answered HTTP ${status} with an answer larger than ${describeBytes(maxBytes)}, which is not a token`,
      };
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { kind: 'transient', status, message: `The token server answered HTTP ${status} with a body that is not JSON` };
    }
    const parsed = tokenResponseSchema().safeParse(json);
    if (!parsed.success)
      return {
        kind: 'transient',
        status,
        message: `The token server answered HTTP ${status} but not with a token (${describeZodError(parsed.error)})`,
      };
    const unsafe = headerUnsafe(parsed.data);
    if (unsafe)
      return {
        kind: 'transient',
        status,
        unusable: true,
        message: `The token server issued a token that cannot be used (${unsafe}); the token server is at fault, call support`,
      };
    return { kind: 'granted', token: parsed.data, receivedAt };
  }
  if ((status >= 300 && status <= 399) || status === 404 || status === 405)
    return {
      kind: 'transient',
      misdirected: true,
      status,
      message: `There is no token server at ${hostOf(url)} (HTTP ${status}${status < 400 ? ', a redirect' : ''}); check the token server address in settings.`,
    };
  // Throttling and server failures say nothing about the credentials.
  if (status === 408 || status === 425 || status === 429 || status >= 500 || status < 400)
    return { kind: 'transient', status, message: `The token server could not issue a token now (HTTP ${status})` };
  return { kind: 'refused', status, reason: refusalReason(body, status, context.secrets) };
}
