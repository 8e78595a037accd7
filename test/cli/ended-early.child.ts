/**
 * A command for the exit guard: it settles on a timer that holds the process open ('ref') or not
 * ('unref'), run as the packdesk CLI's entry runs it, or as the fleet tool's with 'fleet'.
 */
import { runToExit } from '../../src/main/core/entry/exit-guard';
import { FLEET, PACKDESK } from './ended-early.programs';

runToExit(
  process.argv[3] === 'fleet' ? FLEET : PACKDESK,
  () =>
    new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(4), 300);
      if (process.argv[2] === 'unref') timer.unref();
    }),
);
