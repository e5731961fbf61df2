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
// (`IF a THEN RETURN 1; END IF;`). So the body is also tokenized with libpg-query's scan
// (PostgreSQL's SQL scanner, which PL/pgSQL uses too) and walked by a small recursive reader of
// PL/pgSQL's statement structure: a statement list runs until END, ELSE, ELSIF, WHEN or
// EXCEPTION; IF/ELSIF and WHEN read their condition up to THEN, WHILE/FOR/FOREACH up to LOOP, and
// every other statement up to its `;` (parentheses and brackets counted, as PL/pgSQL counts
// them). The reader's statements, in order, must have exactly the compiler's lines, in order (a
// NULL statement, which the compiler drops, gets no point); then the instrumented text is
// compiled again and must be the original statement tree with exactly one yield, numbered in
// order, right before each statement. Anything else is a reason not to instrument the function,
// never a guess.
//
// Not instrumented (a reason is returned): a language other than PL/pgSQL, a function PARALLEL
// SAFE or RESTRICTED (the yield sets a setting and takes locks, which PostgreSQL forbids in
// parallel mode), a body the compiler rejects, a body that already calls testbed_yield, and a
// body the reader cannot follow. SECURITY DEFINER, SET clauses, STRICT, volatility, cost and
// everything else pg_get_functiondef prints are kept as printed: only the body between the
// dollar quotes changes.

import { isDeepStrictEqual } from 'node:util';
import { loadModule, parsePlPgSQL, scan } from 'libpg-query';

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

// ---- Reading the statement structure from tokens ----------------------------------------------

interface Token {
  /** Offsets in the body (JavaScript string indexes). */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** The token lower-cased when it is a bare word (keyword or unquoted identifier), else null. */
  readonly word: string | null;
  readonly line: number;
}

/** The body's tokens, and apart its comments. libpg-query's scan counts UTF-8 bytes: offsets are mapped back to string indexes. */
async function tokenize(body: string): Promise<{ tokens: Token[]; comments: Array<readonly [number, number]> }> {
  const scanned = await scan(body);
  const bytes = Buffer.byteLength(body, 'utf8');
  const toIndex = new Int32Array(bytes + 1).fill(-1);
  let byte = 0;
  for (let index = 0; index < body.length; ) {
    toIndex[byte] = index;
    const code = body.codePointAt(index)!;
    byte += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code >= 0x10000 ? 2 : 1;
  }
  toIndex[bytes] = body.length;
  const lineStarts = [0];
  for (let i = 0; i < body.length; i++) if (body[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (index: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= index) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const tokens: Token[] = [];
  const comments: Array<readonly [number, number]> = [];
  for (const token of scanned.tokens) {
    const start = toIndex[token.start] ?? -1;
    const end = toIndex[token.end] ?? -1;
    if (start < 0 || end < 0) throw new LocateError(`a token offset (${token.start}) is not a character boundary`);
    if (token.tokenName === 'SQL_COMMENT' || token.tokenName === 'C_COMMENT') {
      comments.push([start, end]);
      continue;
    }
    const text = body.slice(start, end);
    const word = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*$/.test(text) ? text.toLowerCase() : null;
    tokens.push({ start, end, text, word, line: lineOf(start) });
  }
  return { tokens, comments };
}

class LocateError extends Error {}

interface Located {
  /** Where the yield goes: the statement's first token (its label, for a labelled loop or block). */
  readonly offset: number;
  /** The line the compiler gives the statement: its keyword's (for a block, its BEGIN's). */
  line: number;
  /** A NULL statement: the compiler drops it, and it gets no point. */
  readonly isNull: boolean;
  /** The end of the statement's head: its `;`, or its THEN, LOOP, BEGIN or CASE expression. */
  headEnd: number;
}

/** Words that end a statement list instead of beginning a statement. */
const LIST_END = new Set(['end', 'else', 'elsif', 'elseif', 'when', 'exception']);

class StatementReader {
  private at = 0;
  readonly statements: Located[] = [];

  constructor(private readonly tokens: ReadonlyArray<Token>) {}

  /** The whole body: compiler options (`#variable_conflict ...`), then the outer block, whose statements are read. */
  read(): void {
    while (this.peek()?.text === '#') this.at += 3;
    this.block(true);
    if (this.peek() !== undefined) this.fail('text after the final END');
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private next(): Token {
    const token = this.tokens[this.at++];
    if (token === undefined) this.fail('the body ends inside a statement');
    return token;
  }

  private fail(message: string): never {
    const token = this.tokens[Math.min(this.at, this.tokens.length - 1)];
    throw new LocateError(`${message}${token === undefined ? '' : ` (line ${token.line}, at ${JSON.stringify(token.text)})`}`);
  }

  private expectWord(word: string): Token {
    const token = this.next();
    if (token.word !== word) {
      this.at--;
      this.fail(`expected ${word.toUpperCase()}`);
    }
    return token;
  }

  private expectText(text: string): void {
    const token = this.next();
    if (token.text !== text) {
      this.at--;
      this.fail(`expected ${JSON.stringify(text)}`);
    }
  }

  /** Skips to the first token at parenthesis depth 0 that is `stop` (a word or a punctuation text); consumes it unless `before`. */
  private until(stop: string, before = false): Token {
    let depth = 0;
    for (;;) {
      const token = this.peek();
      if (token === undefined) this.fail(`the body ends before ${stop.toUpperCase()}`);
      if (depth === 0 && (token.word === stop || token.text === stop)) {
        if (!before) this.at++;
        return token;
      }
      if (token.text === '(' || token.text === '[') depth++;
      else if (token.text === ')' || token.text === ']') depth--;
      this.at++;
    }
  }

  private label(): void {
    this.expectText('<<');
    this.next();
    this.expectText('>>');
  }

  /** `[<<label>>] [DECLARE ...] BEGIN statements [EXCEPTION WHEN ... THEN statements ...] END [label];` Returns its BEGIN. */
  private block(outer: boolean): Token {
    if (this.peek()?.text === '<<') this.label();
    const begin = this.peek()?.word === 'declare' ? this.declarations() : this.expectWord('begin');
    this.list();
    if (this.peek()?.word === 'exception') {
      this.next();
      while (this.peek()?.word === 'when') {
        this.next();
        this.until('then');
        this.list();
      }
    }
    this.expectWord('end');
    const after = this.peek();
    if (after !== undefined && after.text !== ';') this.next(); // END label
    if (!outer || this.peek()?.text === ';') this.expectText(';');
    return begin;
  }

  /** From DECLARE to the block's BEGIN: declarations end at their `;` (a cursor's query may say BEGIN). Returns the BEGIN. */
  private declarations(): Token {
    for (;;) {
      const token = this.peek();
      if (token === undefined) this.fail('the body ends in a DECLARE section');
      if (token.word === 'begin') return this.next();
      if (token.word === 'declare') this.next();
      else this.until(';');
    }
  }

  private list(): void {
    for (;;) {
      const token = this.peek();
      if (token === undefined || (token.word !== null && LIST_END.has(token.word))) return;
      this.statement();
    }
  }

  private endLoop(): void {
    this.expectWord('end');
    this.expectWord('loop');
    if (this.peek()?.text !== ';') this.next(); // END LOOP label
    this.expectText(';');
  }

  private statement(): void {
    const first = this.peek()!;
    if (first.text === '<<') this.label();
    const key = this.peek();
    if (key === undefined) this.fail('a label with no statement');
    const located: Located = { offset: first.start, line: key.line, isNull: key.word === 'null', headEnd: key.end };
    this.statements.push(located);
    switch (key.word) {
      case 'declare':
      case 'begin': {
        const begin = this.block(false);
        located.line = begin.line;
        located.headEnd = begin.end;
        return;
      }
      case 'if':
        this.next();
        located.headEnd = this.until('then').end;
        this.list();
        while (this.peek()?.word === 'elsif' || this.peek()?.word === 'elseif') {
          this.next();
          this.until('then');
          this.list();
        }
        if (this.peek()?.word === 'else') {
          this.next();
          this.list();
        }
        this.expectWord('end');
        this.expectWord('if');
        this.expectText(';');
        return;
      case 'case':
        this.next();
        this.until('when', true);
        located.headEnd = this.tokens[this.at - 1]!.end;
        while (this.peek()?.word === 'when') {
          this.next();
          this.until('then');
          this.list();
        }
        if (this.peek()?.word === 'else') {
          this.next();
          this.list();
        }
        this.expectWord('end');
        this.expectWord('case');
        this.expectText(';');
        return;
      case 'loop':
        this.next();
        this.list();
        this.endLoop();
        return;
      case 'while':
      case 'for':
      case 'foreach':
        this.next();
        located.headEnd = this.until('loop').end;
        this.list();
        this.endLoop();
        return;
      default:
        if (first !== key) this.fail('a label before a statement that is not a block or a loop');
        located.headEnd = this.until(';').end;
    }
  }
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
