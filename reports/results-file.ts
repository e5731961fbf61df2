// `results.json`: the saved GateRunInput. Loading validates the whole file, so a malformed file
// stops with the path of every bad field instead of a report built from half an input.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { GateRunInput } from '../campaign/gates/evidence.ts';
import { writeFileAtomic } from '../campaign/atomic-write.ts';

/** The input is not a valid GateRunInput; `problems` lists each bad field as `path: message`. */
export class GateInputError extends Error {
  constructor(
    readonly origin: string,
    readonly problems: ReadonlyArray<string>,
  ) {
    super(`${origin}: not a valid gate run input:\n  ${problems.join('\n  ')}`);
    this.name = 'GateInputError';
  }
}

const count = z.number().int().nonnegative();

const violation = z.looseObject({
  invariant: z.string(),
  message: z.string(),
  events: z.array(count).optional(),
  scope: z.string().optional(),
});

const firstFailure = z.object({ seed: z.number().int(), replay: z.string(), violations: z.array(violation), flaky: z.literal(true).optional() });

const scenario = z
  .object({
    scenario: z.string().min(1),
    title: z.string(),
    sources: z.array(z.string()),
    adapter: z.string().min(1),
    faults: z.enum(['sim', 'real']),
    expect: z.enum(['pass', 'violation']),
    seedsRun: count,
    failures: count,
    firstFailure: firstFailure.optional(),
    status: z.enum(['decided', 'unknown']).optional(),
    durationMs: z.number().nonnegative().optional(),
  })
  .refine((s) => s.failures <= s.seedsRun, { message: 'failures exceeds seedsRun', path: ['failures'] })
  .refine((s) => !s.scenario.endsWith('-unmitigated') || s.expect === 'violation', {
    message: 'an -unmitigated scenario must expect a violation',
    path: ['expect'],
  });

const mutant = z.object({
  name: z.string().min(1),
  bug: z.string(),
  caught: z.boolean(),
  seedsTried: count,
  firstFailingSeed: z.number().int().optional(),
  firstFailingScenario: z.string().min(1).optional(),
  shrunkOperations: count.optional(),
  shrunkFrom: z.object({ scenario: z.string().min(1), seed: z.number().int() }).optional(),
  replay: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
  check: z
    .object({ caught: z.boolean(), firstFailureMs: count.optional(), steps: count.optional(), replay: z.string() })
    .optional(),
  catches: z.array(z.object({ scenario: z.string().min(1), seed: count, invariants: z.array(z.string().min(1)) })).optional(),
  checkOnly: z.string().min(1).optional(),
});

const suite = z.object({ name: z.string().min(1), passed: count, failed: count, durationMs: z.number().nonnegative().optional() });

const historyEvent = z.looseObject({
  index: count,
  time: z.number(),
  process: z.string(),
  type: z.enum(['invoke', 'ok', 'fail', 'info', 'fault', 'truth']),
  f: z.string(),
  value: z.unknown(),
});

const sample = z.looseObject({
  scenario: z.string(),
  seed: z.number().int(),
  adapter: z.string(),
  faults: z.enum(['sim', 'real']),
  traceHash: z.string(),
  events: count,
  operations: count,
  valid: z.union([z.boolean(), z.literal('unknown')]),
  violations: z.array(violation),
  replay: z.string(),
  simulatedMs: z.number().nonnegative(),
  history: z.array(historyEvent),
});

const gateRunInput = z.object({
  startedAt: z.iso.datetime({ offset: true }),
  finishedAt: z.iso.datetime({ offset: true }),
  scenarios: z.array(scenario),
  mutants: z.array(mutant),
  suites: z.array(suite),
  samples: z.array(sample),
});

/** Throws `GateInputError` unless `input` is a well-formed GateRunInput. */
export function validateGateInput(input: unknown, origin = 'gate run input'): asserts input is GateRunInput {
  const parsed = gateRunInput.safeParse(input);
  if (!parsed.success) {
    throw new GateInputError(
      origin,
      parsed.error.issues.map((issue) => `${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`),
    );
  }
}

export async function loadResults(path: string): Promise<GateRunInput> {
  const text = await readFile(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new GateInputError(path, [`not valid JSON (${(error as Error).message})`]);
  }
  validateGateInput(data, path);
  return data;
}

/** Written without indentation: it is the input of `testbed report`, mostly run histories, and indenting them nearly doubled its size. */
export async function saveResults(input: GateRunInput, path: string): Promise<void> {
  validateGateInput(input);
  await writeFileAtomic(path, `${JSON.stringify(input)}\n`);
}
