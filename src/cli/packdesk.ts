/**
 * `packdesk` (npm run cli -- ...): the support and test CLI over the same engine as the app.
 * See `packdesk --help` and docs/cli.md.
 */
import { runCli } from './main';

runCli(process.argv.slice(2), {
  env: process.env,
  write: (text) => process.stdout.write(text),
  writeError: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`packdesk: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
