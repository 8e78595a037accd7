/**
 * What the order service client needs from whoever holds the token. The token manager
 * (src/main/core/auth) implements it; keeping the interface here means the client can be driven by
 * anything that hands out an Authorization header.
 */
import type { Result } from '../../../shared/result';

/** Problem code: the token server answered HTTP but gave no usable token (HTML, 5xx, expires_in 0). */
export const TOKEN_SERVER_FAULT = 'TOKEN_SERVER_FAULT';
/** Problem code: the token server issued a token that cannot be sent in a header (CR/LF in token_type). */
export const TOKEN_UNUSABLE = 'TOKEN_UNUSABLE';

export interface TokenSource {
  /** The `Authorization` header value (`<token_type> <access_token>`) to send now. */
  authorization(signal?: AbortSignal): Promise<Result<string>>;
  /**
   * Reports that the order service refused `authorizationUsed` (401/412) and resolves with the
   * header to retry with. Callers that saw the same refused header share one refresh.
   */
  rejected(authorizationUsed: string, signal?: AbortSignal): Promise<Result<string>>;
}
