/** A command for the exit guard: it settles on a timer that holds the process open ('ref') or not ('unref'). */
import { runToExit } from '../../src/cli/exit-guard';

runToExit(
  () =>
    new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(4), 300);
      if (process.argv[2] === 'unref') timer.unref();
    }),
);
