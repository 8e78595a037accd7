/**
 * Schemas for what a vault hands back: anything read from the keychain or the environment is
 * outside the process and is parsed before use.
 */
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import { MAX_CLOCK_SKEW_MS } from './expiry';

export const clientCredentialsSchema = builtOnce(() => z.object({
  clientId: z.string().trim().min(1, 'the client id is empty').max(512, 'the client id is too long'),
  // Not trimmed (a secret is sent as given), but one of only spaces is as empty as no secret.
  clientSecret: z
    .string()
    .min(1, 'the client secret is empty')
    .max(4096, 'the client secret is too long')
    .regex(/\S/, 'the client secret is empty'),
}));

export const storedTokensSchema = builtOnce(() => z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  // A type that cannot go in a header (one saved before such tokens were refused) is no token at all.
  tokenType: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/),
  expiresAt: z.number().finite(),
  // This terminal's clock minus the token server's, as the token measured it: known again after a
  // restart, before the next token (intake reads its windows on the service's clock).
  clockSkewMs: z.number().min(-MAX_CLOCK_SKEW_MS).max(MAX_CLOCK_SKEW_MS).optional(),
}));
