// The failure file of `testbed race` (kind 'race'): which case failed (kinds in arrival order and
// starting state and actors, from which the commands are rebuilt exactly), the schedule that broke it, and
// its trace hash, so that `testbed replay` runs that one schedule again and must give the same hash.

import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.ts';
import { ALL_COMMAND_KINDS } from '../check/command-arbitraries.ts';
import { CASE_ACTORS, type CaseActors } from './commands.ts';
import { RACE_STATES } from './states.ts';

export const RACE_FILE_VERSION = 1;

export const raceFileSchema = z
  .object({
    version: z.literal(RACE_FILE_VERSION),
    type: z.literal('race'),
    adapter: z.string().min(1),
    insideFunctions: z.boolean(),
    kinds: z.array(z.enum(ALL_COMMAND_KINDS as [string, ...string[]])).min(2).max(3),
    state: z.enum(RACE_STATES.map((s) => s.name) as [string, ...string[]]),
    actors: z.enum(CASE_ACTORS as [CaseActors, ...CaseActors[]]),
    schedule: z.array(z.string().regex(/^(s\d+(@\d+)?|@clock)$/)),
    violation: z.object({ rule: z.string().min(1), message: z.string() }),
    traceHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest'),
    replay: z.string().min(1),
  })
  .strict();

export type RaceFile = z.infer<typeof raceFileSchema>;

/** Whether parsed JSON claims to be a race failure file (then it is checked whole by raceFileSchema). */
export function isRaceFile(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'race';
}

/** Writes atomically (atomic-write.ts), its directory made when missing. */
export async function writeRaceFile(path: string, file: RaceFile): Promise<void> {
  raceFileSchema.parse(file);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}
