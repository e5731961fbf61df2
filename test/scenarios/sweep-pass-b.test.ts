// seed 000 §277–§302: every scenario the correct implementation must pass has no violation over 100 seeds (500: `npm run sweep:all`) (second half of the catalogue).
import { listScenarios } from '../../scenarios/index.ts';
import { describeMustPass } from './sweep.ts';

const passing = listScenarios().filter((s) => s.expect === 'pass');
describeMustPass('must-pass scenarios (b)', passing.slice(Math.ceil(passing.length / 2)));
