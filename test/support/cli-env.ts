/** The environment a CLI child process gets in tests: the sandbox as token server and order service. */
import { TRAINING_SERVICE_PROVIDER_ID, type Sandbox } from '../../sandbox';
import { TRAINING } from './credentials';

/** PACKDESK_* variables pointing the CLI at `box`, with the data folder and any extra variables. */
export function envFor(box: Sandbox, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PACKDESK_DATA_DIR: dataDir,
    PACKDESK_AUTH_URL: box.url,
    PACKDESK_BASE_URL: box.url,
    PACKDESK_CLIENT_ID: TRAINING.clientId,
    PACKDESK_CLIENT_SECRET: TRAINING.clientSecret,
    // The sandbox speaks plain http on 127.0.0.1, which production refuses.
    PACKDESK_ENVIRONMENT: 'staging',
    PACKDESK_SERVICE_PROVIDER_ID: TRAINING_SERVICE_PROVIDER_ID,
    ...extra,
  };
}
