// What a row of the gate catalogue is (gate-catalogue.ts): the proofs that stand behind it and
// how a gate-lines-*.ts file writes it. Apart from the catalogue so that the line files, which
// the catalogue reads, do not read the catalogue back.

export interface GateProofs {
  readonly scenarios: ReadonlyArray<string>;
  /** The mutants whose entry names the row among its `rows` (mutants/entry.ts), in catalogue order. */
  readonly mutants: ReadonlyArray<string>;
  readonly suites: ReadonlyArray<string>;
  /**
   * The invariants that judge the row's rule. A mutant proves the row only when it was caught on
   * one of the row's scenarios by one of these (empty: by any history checker).
   */
  readonly invariants: ReadonlyArray<string>;
}

export interface GateDefinition {
  /** Stable kebab id: `<seed>-<section>-<slug>`. */
  readonly id: string;
  readonly title: string;
  /** The seed section, for example `000 §316`. */
  readonly source: string;
  readonly proofs: GateProofs;
  /** What the proofs leave out, shown next to the status. */
  readonly note?: string;
}

/** A row as its line writes it: its mutants are not written here but by each mutant (its `rows`). */
export interface Entry extends Partial<Omit<GateProofs, 'mutants'>> {
  readonly note?: string;
}

export type Line = readonly [slug: string, title: string, entry: Entry];
