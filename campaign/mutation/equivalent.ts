// Survivors of the mutation run declared equivalent, each with its reason: a change the protocol
// cannot tell from the original in any run (a log label, a branch only a broken policy takes, a
// bound no workload comes near). A declaration names the mutant by file, line, mutator and
// replacement, so it lapses, and the survivor shows again, when the code under it changes.
// Every other survivor is a gap: a scenario, a checker or a gate row must kill it.

export interface EquivalentMutant {
  readonly file: string;
  readonly line: number;
  readonly mutator: string;
  readonly replacement: string;
  readonly reason: string;
}

export function equivalenceKey(m: Pick<EquivalentMutant, 'file' | 'line' | 'mutator' | 'replacement'>): string {
  return `${m.file}:${m.line}:${m.mutator}:${m.replacement}`;
}

/** The mutants of one line declared equivalent for one reason, by mutator and replacement. */
function declared(file: string, line: number, reason: string, mutants: ReadonlyArray<readonly [string, string]>): EquivalentMutant[] {
  return mutants.map(([mutator, replacement]) => ({ file, line, mutator, replacement, reason }));
}

const RESULT_LABEL =
  "A label of runEffect's result that every caller reads only as 'not applied': each tells 'applied' from the rest and nothing else.";

const CALL_PROVIDER_OFF =
  "Only the broken policy `callProvider: false` (mutant effect-never-sent) runs this line; the correct policy never does, and that mutant is still caught with the line changed.";

const TIMEOUT_SWALLOWED =
  "Only a broken policy that swallows a provider timeout (`retryMiddleware` or `unknownIsFailure`: mutants blind-retry-after-timeout, unknown-treated-as-failure) runs this line; the correct policy never does, and both mutants are still caught with it changed.";

const ASSERTION =
  "An internal assertion of the handler run's own bookkeeping: it holds in every correct run, so dropping it or changing its message changes no run.";

const WORK_UNBOUNDED =
  "Inside `if (!sim.policy.boundWorkByLease)`: the correct policy never enters it (mutant handler-outlives-stalled-refresh does, and is still caught).";

const NO_LEASE_CHECK =
  "The return inside `if (!policy.checkLeaseBeforeEffect)`: only the broken policy (mutant effect-without-lease-confirmation) returns here, and it is still caught with the value changed.";

const NOT_STOPPED_ON_REFUSAL =
  "Inside `if (!policy.stopOnRenewalFailure)`: the correct policy never enters it (mutant holder-not-stopped-on-renewal-failure does, and is still caught).";

export const EQUIVALENT_MUTANTS: ReadonlyArray<EquivalentMutant> = [
  ...declared('sim/effect-protocol.ts', 21, RESULT_LABEL, [['StringLiteral', '""']]),
  ...declared('sim/effect-protocol.ts', 28, RESULT_LABEL, [['StringLiteral', '""']]),
  ...declared('sim/effect-protocol.ts', 37, CALL_PROVIDER_OFF, [['ConditionalExpression', 'true'], ['ConditionalExpression', 'false'], ['EqualityOperator', 'held === null'], ['ObjectLiteral', '{}'], ['StringLiteral', '""']]),
  ...declared('sim/effect-protocol.ts', 38, CALL_PROVIDER_OFF, [['StringLiteral', '""']]),
  ...declared('sim/effect-protocol.ts', 47, TIMEOUT_SWALLOWED, [['ConditionalExpression', 'true'], ['ConditionalExpression', 'false'], ['LogicalOperator', 'sim.policy.unknownIsFailure || held !== null'], ['EqualityOperator', 'held === null'], ['ObjectLiteral', '{}'], ['StringLiteral', '""']]),
  ...declared('sim/effect-protocol.ts', 48, TIMEOUT_SWALLOWED, [['AssignmentOperator', 'j.attempt -= 1']]),
  ...declared('sim/handler-run.ts', 26, ASSERTION, [['ConditionalExpression', 'true'], ['EqualityOperator', 'helds.length >= 0'], ['StringLiteral', '""']]),
  ...declared('sim/handler-run.ts', 31, ASSERTION, [['ConditionalExpression', 'true'], ['StringLiteral', '""']]),
  ...declared('sim/handler-run.ts', 55, ASSERTION, [['ConditionalExpression', 'true'], ['StringLiteral', '``']]),
  ...declared('sim/handler-run.ts', 56, ASSERTION, [['StringLiteral', '``']]),
  ...declared('sim/handler-run.ts', 77, ASSERTION, [['ConditionalExpression', 'true'], ['EqualityOperator', 'run.refreshing >= 0'], ['StringLiteral', '``']]),
  ...declared('sim/handler-run.ts', 88, ASSERTION, [['ConditionalExpression', 'true'], ['StringLiteral', '``']]),
  ...declared('sim/handler-run.ts', 89, ASSERTION, [['ConditionalExpression', 'true'], ['StringLiteral', '``']]),
  ...declared('sim/handler-run.ts', 90, ASSERTION, [['StringLiteral', '``']]),
  ...declared('sim/handler-work.ts', 47, WORK_UNBOUNDED, [['ConditionalExpression', 'false'], ['BooleanLiteral', 'false']]),
  ...declared('sim/lease-protocol.ts', 103, NO_LEASE_CHECK, [['BooleanLiteral', 'false']]),
  ...declared('sim/lease-protocol.ts', 127, NOT_STOPPED_ON_REFUSAL, [['ConditionalExpression', 'false'], ['BooleanLiteral', 'false']]),
];
