// What `--adapter` resolves to (backends/index.ts): the store choice a run takes, with what the
// backend can do and how the CLI closes it.

import type { Interleaving } from '../adapters/interleaving.ts';
import type { Store, StoreOptions } from '../adapters/port.ts';
import type { ControllerPolicy } from '../model/controller-policy.ts';
import type { StoreChoice } from '../sim/run.ts';

export interface ResolvedAdapter {
  readonly name: string;
  readonly store: StoreChoice;
  readonly policy?: Partial<ControllerPolicy>;
  /** A failing run on it may be shrunk: built-in in-process stores, and user stores that declare `capabilities.deterministic`. */
  readonly deterministic?: boolean;
  /**
   * PostgreSQL stores only: `count` stores over one fresh schema, each on a connection of its own
   * (the concurrent sessions of `testbed stress`).
   */
  readonly sessions?: (options: StoreOptions, count: number) => Promise<Store[]>;
  /** Set by `--interleave`: every run on this adapter is interleaved so (adapters/interleaving.ts). */
  readonly interleave?: Interleaving;
  close(): Promise<void>;
}
