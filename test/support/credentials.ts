/** The one set of client credentials tests use: the sandbox's training client. */
import type { ClientCredentials } from '../../src/main/core/auth';

/** The client id and secret the sandbox accepts unless told otherwise (its `clientId`/`clientSecret` defaults). */
export const TRAINING: ClientCredentials = { clientId: 'training', clientSecret: 'training-secret' };
