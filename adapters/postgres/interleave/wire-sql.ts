// The SQL text of a held unit (wire-proxy.ts), read from its messages: a simple Query carries its
// text; in the extended protocol a Parse names a statement and its text, and a Bind runs a
// statement by name, so a lane remembers the statements its connection prepared. Used only to
// describe a step to a chooser (the race stage's independence of steps, campaign/race/); the
// proxy itself never needs it.

/** Reads a NUL-terminated string at `at`: its text and the offset after its terminator. */
function cstring(message: Buffer, at: number): [string, number] {
  const end = message.indexOf(0, at);
  const stop = end < 0 ? message.length : end;
  return [message.toString('utf8', at, stop), stop + 1];
}

/** Calls `each` with the type and body of every message of a unit. */
function messagesOf(unit: Buffer, each: (type: string, body: Buffer) => void): void {
  let offset = 0;
  while (unit.length - offset >= 5) {
    const end = offset + 1 + unit.readInt32BE(offset + 1);
    each(String.fromCharCode(unit[offset]!), unit.subarray(offset + 5, Math.min(end, unit.length)));
    offset = end;
  }
}

/** Records the statements a unit prepares (Parse): their name and text. */
export function recordParses(unit: Buffer, prepared: Map<string, string>): void {
  messagesOf(unit, (type, body) => {
    if (type !== 'P') return;
    const [name, next] = cstring(body, 0);
    prepared.set(name, cstring(body, next)[0]);
  });
}

/**
 * The text of every statement a unit runs, in order, joined by `; ` (a Query's text, or the
 * prepared text of each Bind); empty when it runs none (a bare Sync).
 */
export function unitSql(unit: Buffer, prepared: ReadonlyMap<string, string>): string {
  const texts: string[] = [];
  const local = new Map<string, string>();
  messagesOf(unit, (type, body) => {
    if (type === 'Q') texts.push(cstring(body, 0)[0]);
    else if (type === 'P') {
      const [name, next] = cstring(body, 0);
      local.set(name, cstring(body, next)[0]);
    } else if (type === 'B') {
      const [, next] = cstring(body, 0);
      const name = cstring(body, next)[0];
      texts.push(local.get(name) ?? prepared.get(name) ?? `<prepared statement ${name}>`);
    }
  });
  return texts.join('; ');
}
