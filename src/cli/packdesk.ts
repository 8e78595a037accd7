/**
 * `packdesk` (npm run cli -- ...): the support and test CLI over the same engine as the app.
 * See `packdesk --help` and docs/cli.md.
 */
import { runToExit } from '../main/core/entry/exit-guard';
import { runCli } from './main';

runToExit({ name: 'packdesk', verboseFlag: '--verbose' }, () =>
  runCli(process.argv.slice(2), {
    env: process.env,
    write: (text) => process.stdout.write(text),
    writeError: (text) => process.stderr.write(text),
  }),
);
