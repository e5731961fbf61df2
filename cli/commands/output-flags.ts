// The flags of `testbed merge`, `testbed scenarios` and `testbed report` (cli/flags.ts): where
// they write and how they print, nothing that changes a run.

import { JSON_FLAG, OUT_FLAG } from '../common-flags.ts';
import { defineFlags, type OptionsOf } from '../flags.ts';

export const MERGE_FLAGS = defineFlags([OUT_FLAG, JSON_FLAG]);
export type MergeOptions = OptionsOf<typeof MERGE_FLAGS>;

export const SCENARIOS_FLAGS = defineFlags([JSON_FLAG]);
export type ScenariosOptions = OptionsOf<typeof SCENARIOS_FLAGS>;

export const REPORT_FLAGS = defineFlags([OUT_FLAG]);
export type ReportOptions = OptionsOf<typeof REPORT_FLAGS>;
