// The built-in store backends `--adapter` can name, as one list (docs/ARCHITECTURE.md "The store
// port"): each says how it is named and what it can do. The CLI resolves a backend by asking this
// list which entry a name belongs to, and every other decision (may it be interleaved, does it
// replay exactly, may real faults run on it, which clock does stress read, which gate stage runs
// it) asks the entry's capabilities, never its name. Help and the unknown-adapter message come
// from the list. A new backend is one entry here and one resolver in cli/adapters.ts, which the
// compiler asks for.

export type BackendKind = 'memory' | 'mutant' | 'postgres' | 'postgres-mutant' | 'exec' | 'module';

export interface Backend {
  readonly kind: BackendKind;
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
  /** The gate stage that runs it ('memory' or 'postgres'), or null for a store the gate run does not include. */
  readonly gateStage: 'memory' | 'postgres' | null;
}

const isModulePath = (spec: string): boolean => spec.startsWith('.') || spec.startsWith('/') || /\.(ts|mts|js|mjs)$/.test(spec);

/** In order of matching: a module path is tried last. */
export const BACKENDS: ReadonlyArray<Backend> = [
  { kind: 'memory', syntax: 'memory', matches: (s) => s === 'memory', replays: 'always', interleavable: false, realFaults: false, databaseClock: false, gateStage: 'memory' },
  { kind: 'mutant', syntax: 'mutant:<name>', matches: (s) => s.startsWith('mutant:'), replays: 'always', interleavable: false, realFaults: false, databaseClock: false, gateStage: null },
  { kind: 'postgres', syntax: 'postgres', matches: (s) => s === 'postgres', replays: 'interleaved', interleavable: true, realFaults: true, databaseClock: true, gateStage: 'postgres' },
  {
    kind: 'postgres-mutant', syntax: 'postgres-mutant:<name>', matches: (s) => s.startsWith('postgres-mutant:'),
    replays: 'interleaved', interleavable: true, realFaults: false, databaseClock: true, gateStage: null,
  },
  { kind: 'exec', syntax: 'exec:<command>', matches: (s) => s.startsWith('exec:'), replays: 'declared', interleavable: false, realFaults: false, databaseClock: false, gateStage: null },
  // A module may keep its data where it is told (StoreOptions.connectionString): then it can be interleaved.
  { kind: 'module', syntax: '<path to a store module>', matches: isModulePath, replays: 'declared', interleavable: true, realFaults: false, databaseClock: false, gateStage: null },
];

/** The backend `spec` names, or undefined. */
export function backendOf(spec: string): Backend | undefined {
  return BACKENDS.find((b) => b.matches(spec));
}

/** The adapter name a gate stage runs on (`memory`, `postgres`). */
export function gateStageAdapter(stage: 'memory' | 'postgres'): string {
  const found = BACKENDS.find((b) => b.gateStage === stage);
  if (found === undefined) throw new Error(`no backend runs the ${stage} gate stage`);
  return found.syntax;
}

/** `memory | postgres | mutant:<name> | …`, for help text. */
export function backendSyntaxes(filter: (b: Backend) => boolean = () => true): string {
  return BACKENDS.filter(filter).map((b) => b.syntax).join(' | ');
}

/** `memory, mutant:<name>, … or <path to a store module>`, for messages. */
export function backendChoices(filter: (b: Backend) => boolean = () => true): string {
  const names = BACKENDS.filter(filter).map((b) => b.syntax);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The adapter real faults run on (`--faults real`). */
export function realFaultAdapter(): string {
  const found = BACKENDS.find((b) => b.realFaults);
  if (found === undefined) throw new Error('no backend takes real faults');
  return found.syntax;
}
