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

export const EQUIVALENT_MUTANTS: ReadonlyArray<EquivalentMutant> = [];
