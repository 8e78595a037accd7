/** Where the repository is, for tests that read its files or run its programs. */
import path from 'node:path';

/** The repository root (this file sits at test/support/paths.ts), so no test counts `../` itself. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
