// Where the statements of a PL/pgSQL body begin (plpgsql-rewrite.ts): the body tokenized with
// libpg-query's scan (PostgreSQL's SQL scanner, which PL/pgSQL uses too) and walked by a small
// recursive reader of PL/pgSQL's statement structure. A statement list runs until END, ELSE,
// ELSIF, WHEN or EXCEPTION; IF/ELSIF and WHEN read their condition up to THEN, WHILE/FOR/FOREACH
// up to LOOP, and every other statement up to its `;` (parentheses and brackets counted, as
// PL/pgSQL counts them). What the reader cannot follow is a LocateError, never a guess.

import { scan } from 'libpg-query';

export interface Token {
  /** Offsets in the body (JavaScript string indexes). */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** The token lower-cased when it is a bare word (keyword or unquoted identifier), else null. */
  readonly word: string | null;
  readonly line: number;
}

/** The body's tokens, and apart its comments. libpg-query's scan counts UTF-8 bytes: offsets are mapped back to string indexes. */
export async function tokenize(body: string): Promise<{ tokens: Token[]; comments: Array<readonly [number, number]> }> {
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

export class LocateError extends Error {}

export interface Located {
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

/** The words that open another branch of an IF, and of a CASE. */
const ELSIF = new Set(['elsif', 'elseif']);
const WHEN = new Set(['when']);

export class StatementReader {
  private at = 0;
  readonly statements: Located[] = [];

  constructor(private readonly tokens: ReadonlyArray<Token>) {}

  /** Branches `<word> ... THEN <statements>` while the next word is one of `words`, then an optional `ELSE <statements>`. */
  private branches(words: ReadonlySet<string>): void {
    while (words.has(this.peek()?.word ?? '')) {
      this.next();
      this.until('then');
      this.list();
    }
    if (this.peek()?.word === 'else') {
      this.next();
      this.list();
    }
  }

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
        this.branches(ELSIF);
        this.expectWord('end');
        this.expectWord('if');
        this.expectText(';');
        return;
      case 'case':
        this.next();
        this.until('when', true);
        located.headEnd = this.tokens[this.at - 1]!.end;
        this.branches(WHEN);
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
