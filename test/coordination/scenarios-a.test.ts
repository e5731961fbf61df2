// seed 001 §259–§266, §276–§277: every coordination scenario (first half) passes 200 seeds on the memory store and shows the fault it is about.
import { describeCoordination, FIRST_HALF } from './scenarios.ts';

describeCoordination('seed 001 scenarios (first half)', FIRST_HALF);
