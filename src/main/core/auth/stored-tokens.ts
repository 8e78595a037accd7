/**
 * Schemas for what a vault hands back: anything read from the keychain or the environment is
 * outside the process and is parsed before use.
 */
import { z } from 'zod';

export const ClientCredentialsSchema = z.object({
  clientId: z.string().trim().min(1, 'the client id is empty').max(512, 'the client id is too long'),
  clientSecret: z.string().min(1, 'the client secret is empty').max(4096, 'the client secret is too long'),
});

export const StoredTokensSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  tokenType: z.string().min(1),
  expiresAt: z.number().finite(),
});
