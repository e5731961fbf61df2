// seed 001 §259–§266, §276–§277: every coordination scenario (second half) passes 200 seeds on the memory store and shows the fault it is about.
import { describeCoordination, SECOND_HALF } from './scenarios.ts';

describeCoordination('seed 001 scenarios (second half)', SECOND_HALF);
