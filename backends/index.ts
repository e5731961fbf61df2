// The built-in store backends `--adapter` can name, as one list (docs/ARCHITECTURE.md "The store
// port"). Each backend is a folder here declaring what it can do and how it is opened
// (backends/backend.ts); this list is the only place that names them all. The CLI resolves a
// backend by asking the list which entry a name belongs to, and every other decision asks the
// entry's capabilities, never its name. Help and the unknown-adapter message come from the list.
// A new backend is its folder and one line below.

import type { InterleaveStrategy } from '../adapters/interleaving.ts';
import { UsageError } from '../adapters/errors.ts';
import type { Backend, GateStage } from './backend.ts';
import { exec } from './exec/backend.ts';
import { memory } from './memory/backend.ts';
import { storeModule } from './module/backend.ts';
import { mutant } from './mutant/backend.ts';
import { postgresMutant } from './postgres-mutant/backend.ts';
import { postgres } from './postgres/backend.ts';
import type { ResolvedAdapter } from './resolved-adapter.ts';

export type { Backend, GateStage } from './backend.ts';
export type { ResolvedAdapter } from './resolved-adapter.ts';

/** In order of matching: a module path is tried last. */
export const BACKENDS: ReadonlyArray<Backend> = [
  memory,
  mutant,
  postgres,
  postgresMutant,
  exec,
  storeModule,
];

export interface ResolveOptions {
  /** Run every store call interleaved with this strategy (PostgreSQL stores and store modules that connect where told). */
  readonly interleave?: InterleaveStrategy;
}

/** What the CLI asks of a list of backends: the built-in one below, or a longer one in a test. */
export interface BackendRegistry {
  readonly backends: ReadonlyArray<Backend>;
  /** The backend `spec` names, or undefined. */
  backendOf(spec: string): Backend | undefined;
  /** Opens what `spec` names: an unknown name, or an interleaving the backend cannot take, is bad input. */
  resolveAdapter(spec: string, options?: ResolveOptions): Promise<ResolvedAdapter>;
  /** `memory | postgres | mutant:<name> | …`, for help text. */
  backendSyntaxes(filter?: (b: Backend) => boolean): string;
  /** `memory, mutant:<name>, … or <path to a store module>`, for messages. */
  backendChoices(filter?: (b: Backend) => boolean): string;
  /** The adapter name a gate stage runs on. */
  gateStageAdapter(stage: GateStage): string;
  /** The adapter real faults run on (`--faults real`). */
  realFaultAdapter(): string;
  /** The adapter a command takes when none is named: the first of the list. */
  defaultAdapter(): string;
  /** The store `race` runs by default: the first that replays when interleaved. */
  defaultRaceAdapter(): string;
}

export function backendRegistry(backends: ReadonlyArray<Backend>): BackendRegistry {
  const backendOf = (spec: string) => backends.find((b) => b.matches(spec));
  const syntaxes = (filter: (b: Backend) => boolean) => backends.filter(filter).map((b) => b.syntax);
  /** The adapter name of the first backend that passes `test`: its syntax, which must name it alone (no `<…>` part). */
  const only = (what: string, test: (b: Backend) => boolean): string => {
    const found = backends.find(test);
    if (found === undefined) throw new Error(`no backend ${what}`);
    if (!found.matches(found.syntax)) throw new Error(`backend ${found.kind} ${what}, but its syntax ${found.syntax} is not an adapter name`);
    return found.syntax;
  };
  const backendChoices = (filter: (b: Backend) => boolean = () => true): string => {
    const names = syntaxes(filter);
    return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  };
  return {
    backends,
    backendOf,
    backendChoices,
    backendSyntaxes: (filter = () => true) => syntaxes(filter).join(' | '),
    gateStageAdapter: (stage) => only(`runs the ${stage} gate stage`, (b) => b.gateStage === stage),
    realFaultAdapter: () => only('takes real faults', (b) => b.realFaults),
    defaultAdapter: () => only('comes first', (b) => b === backends[0]),
    defaultRaceAdapter: () => only('replays when interleaved', (b) => b.interleavable && b.replays === 'interleaved'),
    resolveAdapter: async (spec, options = {}) => {
      const interleave = options.interleave;
      const backend = backendOf(spec);
      if (backend === undefined) throw new UsageError(`unknown adapter '${spec}': expected ${backendChoices()}`);
      if (interleave !== undefined && !backend.interleavable) {
        const flag = interleave === 'free' ? '--concurrency free' : '--interleave';
        throw new UsageError(`${flag} needs a store on PostgreSQL (${backendChoices((b) => b.interleavable)} that connects to options.connectionString), not ${spec}`);
      }
      return backend.open(spec, interleave);
    },
  };
}

const BUILT_IN = backendRegistry(BACKENDS);

export const { backendOf, resolveAdapter, backendSyntaxes, backendChoices, gateStageAdapter, realFaultAdapter, defaultAdapter, defaultRaceAdapter } = BUILT_IN;

/** A user's store: a module path or `exec:<command>` (a backend that runs a user's code). */
export function isUserStore(spec: string): boolean {
  return backendOf(spec)?.userCode !== undefined;
}
