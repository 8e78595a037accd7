/**
 * `packdesk hub …` and `packdesk run` against the real keychain. Both keep the store's secret under
 * the same keychain entry per environment (Packdesk-<env> / hub-secret), so run in parallel files
 * they took each other's secret (one file's `hub create` seen by the other's "writes nothing").
 * Imported into one file, their cases run one after the other.
 */
import './hub.cases';
import './run.cases';
