// The shape of the records the checkers read besides the store's own calls (model/history.ts): an
// operation event's type, each ground-truth record's fields, and the handler's `run` and `wait`
// operations. A checker that meets a record of another shape skips it or cannot decide, so a
// simulator that wrote one (a label misspelt, a field left out) would weaken the verdict without
// a word. The simulator checks every record it writes against these shapes (sim/history-recorder.ts).

/** A field: its type (`?`: or null, or absent), or the words it may hold. */
type Field = 'string' | 'number' | 'string?' | 'number?' | 'array' | ReadonlyArray<string>;

type Shape = Readonly<Record<string, Field>>;

export const OP_TYPES: ReadonlyArray<string> = ['invoke', 'ok', 'fail', 'info'];

/** Why the runtime tells a run to stop (model/history.ts `cancel-cause`). */
export const CANCEL_CAUSES: ReadonlyArray<string> = ['renewal-refused', 'write-refused', 'window-passed', 'unconfirmed', 'cancelled'];

const RUN_OUTCOMES: ReadonlyArray<string> = ['completed', 'error', 'preempted'];

/** Each kind of ground truth: who records it and the fields it must carry. */
const TRUTHS: Readonly<Record<string, { readonly process: string; readonly fields: Shape }>> = {
  'effect-applied': { process: 'provider', fields: { intentId: 'string', scope: 'string', holder: 'string', operation: 'string' } },
  // A store may answer Accepted without a token (the port allows it): the write is then not judged by token.
  'mutation-accepted': { process: 'resource', fields: { scope: 'string', aggregate: 'string', token: 'number?', holder: 'string', version: 'number' } },
  interleaving: { process: 'database', fields: { calls: 'array', schedule: 'array', finished: 'array' } },
  instrumented: { process: 'database', fields: {} },
  'work-step': { process: 'handler', fields: { scope: 'string', token: 'number', holder: 'string', process: 'string' } },
  'handler-returned': { process: 'handler', fields: { process: 'string', result: ['ok', 'error'] } },
  'cancel-cause': { process: 'handler', fields: { process: 'string', cause: CANCEL_CAUSES } },
  'own-semantics': { process: 'database', fields: {} },
  'session-leases': { process: 'database', fields: {} },
  // A database crash, failover or restore ends sessions of no one process.
  'session-ended': { process: 'database', fields: { scope: 'string', holder: 'string', token: 'number', cause: 'string', process: 'string?' } },
  fencing: { process: 'database', fields: { kind: ['opaque', 'none'] } },
  renewal: { process: 'database', fields: { kind: ['confirms'] } },
  'cluster-doctor': { process: 'database', fields: { storeRoleEpochs: 'array' } },
};

/** The handler's operations the checkers read, by `f` and event type. */
const HANDLER_OPS: Readonly<Record<string, Readonly<Partial<Record<string, Shape>>>>> = {
  run: { invoke: { scope: 'string', token: 'number', holder: 'string' }, ok: { outcome: RUN_OUTCOMES }, fail: { outcome: RUN_OUTCOMES } },
  wait: { invoke: { scope: 'string', waiterId: 'string' }, ok: { scope: 'string', waiterId: 'string', token: 'number' }, fail: { scope: 'string', waiterId: 'string', reason: 'string' } },
};

function fieldProblem(value: unknown, name: string, field: Field): string | null {
  const actual = typeof value === 'object' && value !== null ? (value as Readonly<Record<string, unknown>>)[name] : undefined;
  if (field === 'array') return Array.isArray(actual) ? null : `${name} is not a list`;
  if (field === 'string?' || field === 'number?') return actual === null || actual === undefined || typeof actual === field.slice(0, -1) ? null : `${name} is neither a ${field.slice(0, -1)} nor absent`;
  if (typeof field === 'string') return typeof actual === field ? null : `${name} is not a ${field}`;
  return typeof actual === 'string' && field.includes(actual) ? null : `${name} is ${JSON.stringify(actual)}, not one of ${field.join(', ')}`;
}

function shapeProblem(value: unknown, shape: Shape): string | null {
  for (const [name, field] of Object.entries(shape)) {
    const problem = fieldProblem(value, name, field);
    if (problem !== null) return problem;
  }
  return null;
}

/** What is wrong with an operation event of type `type` and function `f` carrying `value`; null when nothing is. */
export function opRecordProblem(type: string, f: string, value: unknown): string | null {
  if (!OP_TYPES.includes(type)) return `an operation event of type ${JSON.stringify(type)}`;
  if (f === '') return 'an operation without a function';
  const shape = HANDLER_OPS[f]?.[type];
  // An `info` closes an operation its process's end cut short: it carries why, not a result.
  return shape === undefined ? null : shapeProblem(value, shape);
}

/** What is wrong with a ground-truth record `f` by `process` carrying `value`; null when nothing is. */
export function truthRecordProblem(process: string, f: string, value: unknown): string | null {
  const truth = TRUTHS[f];
  if (truth === undefined) return `a ground-truth record of unknown kind ${JSON.stringify(f)}`;
  if (process !== truth.process) return `${f} recorded by ${process}, not ${truth.process}`;
  return shapeProblem(value, truth.fields);
}
