// The pure half of scheduling points inside server-side functions (function-points.ts): the
// instrumented CREATE OR REPLACE text of one PL/pgSQL function, as pg_get_functiondef prints it,
// with a yield before every statement of its body at every nesting level.
//
// The yield statement is `IF <schema>.testbed_yield(<point>) THEN END IF; `, not a PERFORM: a
// PERFORM sets FOUND and the row count GET DIAGNOSTICS reads, so `UPDATE ...; IF NOT FOUND` would
// see the yield's row, not the UPDATE's. An IF sets neither, and its condition, one call of a
// PL/pgSQL function, is a "simple expression" that PL/pgSQL evaluates without the executor (no
// row count either). The yield is inserted on the statement's own line, before its first token
// (before its `<<label>>` or DECLARE, for a labelled loop or a block), so every line number of the
// body, and of PostgreSQL's error context ("line 12 at SQL statement"), stays what it was.
//
// Where statements begin: libpg-query's parsePlPgSQL (PostgreSQL's own PL/pgSQL compiler) gives
// each statement's kind and line, but no offset, and a line may hold several statements
// (`IF a THEN RETURN 1; END IF;`). So the body is also tokenized and walked by a small reader
// of PL/pgSQL's statement structure (plpgsql-reader.ts). The reader's statements, in order,
// must have exactly the compiler's lines, in order (a NULL statement, which the compiler drops,
// gets no point); then the instrumented text is compiled again and must be the original
// statement tree with exactly one yield, numbered in order, right before each statement. Anything else is a reason not to instrument the function,
// never a guess.
//
// Not instrumented (a reason is returned): a language other than PL/pgSQL, a function PARALLEL
// SAFE or RESTRICTED (the yield sets a setting and takes locks, which PostgreSQL forbids in
// parallel mode), a body the compiler rejects, a body that already calls testbed_yield, and a
// body the reader cannot follow. SECURITY DEFINER, SET clauses, STRICT, volatility, cost and
// everything else pg_get_functiondef prints are kept as printed: only the body between the
// dollar quotes changes.

import { isDeepStrictEqual } from 'node:util';
import { loadModule, parsePlPgSQL } from 'libpg-query';
import { LocateError, StatementReader, tokenize, type Located } from './plpgsql-reader.ts';

/** The yield function's name, in the schema of the functions it instruments. */
export const YIELD_FUNCTION = 'testbed_yield';

/** One scheduling point of an instrumented function. */
export interface PointLine {
  /** The number passed to testbed_yield: unique in the schema (function-points.ts numbers them in order). */
  readonly point: number;
  /** 1-based line in the function body (the text between the dollar quotes), as PostgreSQL's error context counts it. */
  readonly line: number;
  /** The statement's kind as PL/pgSQL names it (`execsql`, `assign`, `if`, `return`, `block`, ...). */
  readonly kind: string;
  /** The statement's head: a simple statement whole, a compound one up to its THEN, LOOP, BEGIN or CASE expression; comments dropped, spaces collapsed, at most 80 characters. */
  readonly text: string;
}

export type Rewrite = { readonly sql: string; readonly lines: ReadonlyArray<PointLine> } | { readonly reason: string };

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The yield call of one point: what the condition of every inserted IF reads. */
export function yieldCall(schema: string, point: number): string {
  return `${quoteIdent(schema)}.${YIELD_FUNCTION}(${point})`;
}

function yieldStatement(schema: string, point: number): string {
  return `IF ${yieldCall(schema, point)} THEN END IF; `;
}

let loaded: Promise<void> | null = null;
function ready(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one `PLpgSQL_stmt_*` key of a statement node, or null. */
function statementKey(node: Json | undefined): string | null {
  if (!isObject(node)) return null;
  const keys = Object.keys(node);
  return keys.length === 1 && keys[0]!.startsWith('PLpgSQL_stmt_') ? keys[0]! : null;
}

/** The compiled function: `{ PLpgSQL_function: { datums, action, ... } }`. */
async function compile(definition: string): Promise<JsonObject> {
  const result = (await parsePlPgSQL(definition)) as unknown as { plpgsql_funcs?: Json[] };
  const funcs = result.plpgsql_funcs ?? [];
  if (funcs.length !== 1 || !isObject(funcs[0]) || !isObject(funcs[0].PLpgSQL_function)) throw new Error(`expected one compiled function, got ${funcs.length}`);
  return funcs[0].PLpgSQL_function;
}

/**
 * The statement node of the body's own outer block. The compiler appends a RETURN with no line to
 * every body; when the outer block has a label or an EXCEPTION clause, it wraps block and RETURN
 * in a block of its own (no line either), whose first statement is then the body's block.
 */
function outerBlock(fn: JsonObject): JsonObject {
  const action = fn.action;
  if (!isObject(action) || !isObject(action.PLpgSQL_stmt_block)) throw new Error('the compiled function has no outer block');
  if (typeof action.PLpgSQL_stmt_block.lineno === 'number') return action;
  const body = action.PLpgSQL_stmt_block.body;
  const first = Array.isArray(body) ? body[0] : undefined;
  if (!isObject(first) || !isObject(first.PLpgSQL_stmt_block)) throw new Error('the compiled function has no outer block');
  return first;
}

interface CompiledStatement {
  readonly kind: string;
  readonly line: number;
}

/** Every statement inside the outer block, in source order (pre-order), without the compiler's line-less ones. */
function compiledStatements(outer: JsonObject): CompiledStatement[] {
  const found: CompiledStatement[] = [];
  const walk = (node: Json): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!isObject(node)) return;
    const key = statementKey(node);
    if (key !== null) {
      const statement = node[key] as JsonObject;
      if (typeof statement.lineno !== 'number') return;
      found.push({ kind: key.slice('PLpgSQL_stmt_'.length), line: statement.lineno });
    }
    for (const value of Object.values(key === null ? node : (node[key] as JsonObject))) walk(value);
  };
  for (const value of Object.values(outer.PLpgSQL_stmt_block as JsonObject)) walk(value);
  return found;
}

// ---- The definition ----------------------------------------------------------------------------

interface Definition {
  /** Everything up to and including the opening dollar quote. */
  readonly head: string;
  readonly body: string;
  /** The closing dollar quote and what follows. */
  readonly tail: string;
}

/** pg_get_functiondef's layout: attribute lines, then `AS $function$<prosrc>$function$` (the delimiter grows x's until unique). */
function splitDefinition(definition: string): Definition | string {
  const language = /^ LANGUAGE (\S+)$/m.exec(definition)?.[1]?.toLowerCase() ?? null;
  if (language !== 'plpgsql') return `LANGUAGE ${language ?? 'unknown'}: only PL/pgSQL bodies have statements to instrument`;
  const as = /^AS (\$[A-Za-z_]*\$)/m.exec(definition);
  if (as === null) return 'no dollar-quoted body';
  const open = as.index + as[0].length;
  const close = definition.lastIndexOf(as[1]!);
  if (close < open) return 'the body has no closing dollar quote';
  return { head: definition.slice(0, open), body: definition.slice(open, close), tail: definition.slice(close) };
}

/** The statement's head (a simple statement whole, a compound one up to its THEN, LOOP or BEGIN), without comments, on one line, at most 80 characters. */
function snippet(body: string, statement: Located, comments: ReadonlyArray<readonly [number, number]>): string {
  let text = '';
  let at = statement.offset;
  for (const [start, end] of comments) {
    if (end <= at || start >= statement.headEnd) continue;
    text += `${body.slice(at, start)} `;
    at = end;
  }
  text = (text + body.slice(at, statement.headEnd)).replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * The instrumented function, compiled again: removing its yields must give exactly the original
 * tree, and every statement of the body (not its outer block, not the compiler's line-less RETURN)
 * must come right after the yield of the next point. Returns the number of yields, or a reason.
 */
function checkInstrumented(original: JsonObject, instrumented: JsonObject, schema: string, firstPoint: number): number | string {
  const outer = outerBlock(instrumented);
  const prefix = `${quoteIdent(schema)}.${YIELD_FUNCTION}(`;
  const pointOf = (node: Json): number | null => {
    if (statementKey(node) !== 'PLpgSQL_stmt_if') return null;
    const statement = (node as JsonObject).PLpgSQL_stmt_if as JsonObject;
    const cond = isObject(statement.cond) && isObject(statement.cond.PLpgSQL_expr) ? statement.cond.PLpgSQL_expr.query : null;
    if (typeof cond !== 'string' || !cond.startsWith(prefix) || !cond.endsWith(')')) return null;
    if (Object.keys(statement).some((key) => key !== 'lineno' && key !== 'cond')) return null;
    const point = Number(cond.slice(prefix.length, -1));
    return Number.isInteger(point) ? point : null;
  };
  let next = firstPoint;
  let problem: string | null = null;
  const strip = (node: Json): Json => {
    if (Array.isArray(node)) {
      const kept: Json[] = [];
      let pending: number | null = null;
      for (const item of node) {
        const point = pointOf(item);
        if (point !== null) {
          if (pending !== null) problem ??= `two yields in a row (points ${pending} and ${point})`;
          pending = point;
          continue;
        }
        const key = statementKey(item);
        const numbered = key !== null && item !== outer && typeof ((item as JsonObject)[key] as JsonObject).lineno === 'number';
        if (numbered) {
          if (pending !== next) problem ??= `statement ${next - firstPoint + 1} is not preceded by yield ${next}`;
          next++;
        } else if (pending !== null) problem ??= `yield ${pending} is not before a statement of the body`;
        pending = null;
        kept.push(strip(item));
      }
      if (pending !== null) problem ??= `yield ${pending} ends a statement list`;
      return kept;
    }
    if (!isObject(node)) return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, strip(value)]));
  };
  const stripped = strip(instrumented);
  if (problem !== null) return problem;
  if (!isDeepStrictEqual(stripped, original)) return 'without its yields, the instrumented function does not compile to the original';
  return next - firstPoint;
}

/**
 * The instrumented CREATE OR REPLACE text of one function definition (as pg_get_functiondef
 * prints it), its points numbered from `firstPoint`, or the reason it cannot be instrumented.
 * Pure: nothing is sent to a server.
 */
export async function instrumentDefinition(definition: string, schema: string, firstPoint = 1): Promise<Rewrite> {
  await ready();
  const split = splitDefinition(definition);
  if (typeof split === 'string') return { reason: split };
  // pg_get_functiondef prints WINDOW, volatility, PARALLEL, STRICT, ... on one line of their own.
  const parallel = /^ (?!RETURNS |SET )[^\n]*\bPARALLEL (SAFE|RESTRICTED)\b/m.exec(split.head);
  if (parallel !== null) return { reason: `PARALLEL ${parallel[1]}: a yield sets a setting and takes locks, which PostgreSQL forbids in parallel mode` };
  if (split.body.includes(`.${YIELD_FUNCTION}(`)) return { reason: `already instrumented (the body calls ${YIELD_FUNCTION})` };
  let original: JsonObject;
  try {
    original = await compile(definition);
  } catch (error) {
    return { reason: `libpg-query's PL/pgSQL compiler rejects it: ${(error as Error).message}` };
  }
  const compiled = compiledStatements(outerBlock(original));
  let located: Located[];
  let comments: Array<readonly [number, number]>;
  try {
    const tokenized = await tokenize(split.body);
    comments = tokenized.comments;
    const reader = new StatementReader(tokenized.tokens);
    reader.read();
    located = reader.statements.filter((statement) => !statement.isNull);
  } catch (error) {
    if (!(error instanceof LocateError)) throw error;
    return { reason: `its statements could not be located: ${error.message}` };
  }
  if (located.length !== compiled.length || located.some((statement, i) => statement.line !== compiled[i]!.line)) {
    return {
      reason: `its statements could not be located: read ${located.length} at lines [${located.map((s) => s.line).join(', ')}], the compiler has ${compiled.length} at lines [${compiled.map((s) => s.line).join(', ')}]`,
    };
  }
  if (compiled.length === 0) return { reason: 'the body has no statement' };
  let body = split.body;
  for (let i = located.length - 1; i >= 0; i--) {
    const offset = located[i]!.offset;
    body = body.slice(0, offset) + yieldStatement(schema, firstPoint + i) + body.slice(offset);
  }
  const sql = split.head + body + split.tail;
  let instrumented: JsonObject;
  try {
    instrumented = await compile(sql);
  } catch (error) {
    return { reason: `the instrumented copy does not compile: ${(error as Error).message}` };
  }
  const checked = checkInstrumented(original, instrumented, schema, firstPoint);
  if (typeof checked === 'string') return { reason: `the instrumented copy is not the original with a yield before each statement: ${checked}` };
  if (checked !== located.length) return { reason: `the instrumented copy has ${checked} yields for ${located.length} statements` };
  const lines = located.map((statement, i) => ({
    point: firstPoint + i,
    line: statement.line,
    kind: compiled[i]!.kind,
    text: snippet(split.body, statement, comments),
  }));
  return { sql, lines };
}
