// When two steps of different sessions commute (the race stage's partial-order reduction,
// schedule-tree.ts). A step is described by the SQL text of the statement it sends (null: a step
// past a point inside a function, or a move of store time, whose effect is not known), parsed with
// PostgreSQL's own parser (libpg-query). The rule is conservative: two steps are independent only
// when one of them changes nothing another session can see, or both only read.
//   - session-local: BEGIN / START TRANSACTION, SET, SHOW. PostgreSQL takes a transaction's
//     snapshot at its first statement, not at BEGIN, and a setting is the session's own.
//   - read: SELECT with no locking clause (FOR UPDATE/SHARE), no INTO, no data-modifying
//     statement anywhere inside, and no function call but those of READ_FUNCTIONS (built-ins that
//     change nothing another session sees: arithmetic, JSON building, aggregates, the clock; and
//     the shared transaction-level advisory lock, which never conflicts with another shared one or
//     with a read). Two reads change no row and take no lock that conflicts with another read.
//   - anything else (writes, locking reads, function calls, COMMIT, ROLLBACK, SET TRANSACTION,
//     unknown text, steps inside functions, moves of store time) depends on every other step.
// The rule reads the text alone: a SELECT from a view or a table with row security that calls a
// writing function would be taken for a read. The built-in stores have neither.

import { loadModule, parseSync } from 'libpg-query';

export type StepClass = 'local' | 'read' | 'other';

let loaded: Promise<void> | null = null;
/** The parser is WebAssembly: load it once before classifying. */
export function loadClassifier(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
}

const LOCAL_TRANSACTION_KINDS = new Set(['TRANS_STMT_BEGIN', 'TRANS_STMT_START']);
/** Node types that make a SELECT more than a read. */
const NOT_READ = new Set(['lockingClause', 'intoClause', 'InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);
/**
 * Functions a read may call (by name, any schema). pg_current_xact_id assigns the transaction an
 * id, which orders nothing another session can observe in answers or rows.
 */
const READ_FUNCTIONS = new Set([
  'clock_timestamp', 'now', 'statement_timestamp', 'transaction_timestamp', 'extract', 'date_part', 'floor', 'ceil', 'round', 'abs',
  'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'json_agg', 'jsonb_agg', 'to_json', 'to_jsonb', 'row_to_json',
  'count', 'sum', 'max', 'min', 'array_agg', 'bool_and', 'bool_or', 'unnest', 'lower', 'upper', 'length', 'hashtext', 'current_schema', 'current_setting',
  'pg_advisory_xact_lock_shared', 'pg_current_xact_id',
]);

function functionName(call: { funcname?: Array<{ String?: { sval?: string } }> }): string {
  return call.funcname?.[call.funcname.length - 1]?.String?.sval ?? '';
}

/** Whether a node holds anything that makes a SELECT more than a read. */
function writesOrLocks(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(writesOrLocks);
  if (node === null || typeof node !== 'object') return false;
  for (const [key, value] of Object.entries(node)) {
    if (NOT_READ.has(key)) return true;
    if (key === 'FuncCall' && !READ_FUNCTIONS.has(functionName(value as { funcname?: Array<{ String?: { sval?: string } }> }))) return true;
    if (writesOrLocks(value)) return true;
  }
  return false;
}

function classOfStatement(stmt: Record<string, unknown>): StepClass {
  const [type, body] = Object.entries(stmt)[0] ?? ['', null];
  // SET TRANSACTION SNAPSHOT imports another session's snapshot: not the session's own.
  if (type === 'VariableSetStmt') return (body as { kind?: string }).kind === 'VAR_SET_MULTI' ? 'other' : 'local';
  if (type === 'VariableShowStmt') return 'local';
  if (type === 'TransactionStmt') return LOCAL_TRANSACTION_KINDS.has((body as { kind?: string }).kind ?? '') ? 'local' : 'other';
  if (type === 'SelectStmt') return writesOrLocks(body) ? 'other' : 'read';
  return 'other';
}

/** The class of a step: every statement of its text local -> local; every one local or read -> read. */
export function classify(sql: string | null): StepClass {
  if (sql === null || sql.trim() === '') return 'other';
  let stmts: Array<{ stmt: Record<string, unknown> }>;
  try {
    stmts = (parseSync(sql) as { stmts?: Array<{ stmt: Record<string, unknown> }> }).stmts ?? [];
  } catch {
    return 'other';
  }
  if (stmts.length === 0) return 'other';
  const classes = stmts.map((s) => classOfStatement(s.stmt));
  if (classes.every((c) => c === 'local')) return 'local';
  return classes.every((c) => c !== 'other') ? 'read' : 'other';
}

/** Whether two steps of different sessions give the same result in either order. */
export function independent(a: StepClass, b: StepClass): boolean {
  return a === 'local' || b === 'local' || (a === 'read' && b === 'read');
}
