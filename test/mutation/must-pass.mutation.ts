// The test StrykerJS runs against each mutant of the protocol code (`npm run mutation`,
// campaign/mutation/): every must-pass scenario of the gate (seed 000 §277–§302),
// over a few seeds each on the memory store, must end with no violation and no undecided run. A
// mutant is killed only by a verdict (a checker's violation, an undecided run, a crash), never by a
// changed trace hash: a change of behaviour that breaks no rule survives and is triaged.
// Not collected by `npm test` (its name does not end in .test.ts); SWEEP_SEEDS sets the seeds.
import { listScenarios } from '../../scenarios/index.ts';
import { describeMustPass } from '../scenarios/sweep.ts';

describeMustPass('must-pass scenarios', listScenarios().filter((s) => s.expect === 'pass'));
