/**
 * The process test/main/core/db/space.test.ts kills: opens a data file made before auto-vacuum as
 * the engine opens it, says "vacuuming" and makes the one-time switch (a whole-file VACUUM), then
 * says "switched". The test kills it with SIGKILL at a random moment in between.
 */
import { openStore } from '../../../../src/main/core/db';
import { reclaimSpace } from '../../../../src/main/core/outbox';

const dataDir = process.env.SPACE_DATA_DIR;
if (!dataDir) throw new Error('SPACE_DATA_DIR is not set');
const opened = openStore({ dataDir, now: Date.now });
if (!opened.ok) throw new Error(opened.problem.message);
process.stdout.write('vacuuming\n');
const step = reclaimSpace(opened.value, { quiet: true });
opened.value.close();
process.stdout.write(`${step.kind}\n`);
