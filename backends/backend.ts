// What a store backend is (docs/ARCHITECTURE.md "The store port"): how `--adapter` names it, what
// it can do, and how it is opened. Every decision the CLI and the reports make about a store (may
// it be interleaved, does it replay exactly, may real faults run on it, which clock does stress
// read, which gate stage runs it) asks these capabilities, never the backend's name.

import type { InterleaveStrategy } from '../adapters/interleaving.ts';
import type { ResolvedAdapter } from './resolved-adapter.ts';

/** The two stages of the gate run that run a built-in store: the in-process one, and the one on a database server. */
export type GateStage = 'memory' | 'database';

export interface Backend {
  /** Its name in the registry and in tests. */
  readonly kind: string;
  /** How `--adapter` names it, for help and messages. */
  readonly syntax: string;
  /** Whether `spec` names this backend. */
  matches(spec: string): boolean;
  /**
   * A run on it replays exactly from its seed, so a failure shrinks: 'always' (the built-in
   * in-process stores), 'interleaved' (answers alike when every call is interleaved from the seed:
   * the built-in PostgreSQL stores), 'declared' (a user's store that declares
   * `capabilities.deterministic`).
   */
  readonly replays: 'always' | 'interleaved' | 'declared';
  /** Its calls can be interleaved statement by statement (`--interleave`, `--concurrency free`): it keeps its data in PostgreSQL. */
  readonly interleavable: boolean;
  /** Real faults (`--faults real`) act on it: the built-in PostgreSQL store only. */
  readonly realFaults: boolean;
  /** Expiry is decided by the database server's clock, so `stress` reads the server's time by default. */
  readonly databaseClock: boolean;
  /**
   * A user's code the backend runs (absent: the testbed's own store): a command it runs (`exec:`) or a
   * module it imports, and what that is for a spec, for the lines that say so.
   */
  readonly userCode?: { readonly kind: 'command' | 'import'; what(spec: string): string };
  /** The gate stage that runs it, or null for a store the gate run does not include. */
  readonly gateStage: GateStage | null;
  /**
   * Opens the store `spec` names, interleaved with `interleave` when given (only asked of an
   * interleavable backend). Bad input is a UsageError, a machine that cannot serve it an
   * UndecidedError (adapters/errors.ts).
   */
  open(spec: string, interleave: InterleaveStrategy | undefined): Promise<ResolvedAdapter>;
}
