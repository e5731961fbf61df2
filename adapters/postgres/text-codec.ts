// PostgreSQL `text` cannot hold U+0000, and a lone UTF-16 surrogate has no UTF-8 form (it would
// come back as U+FFFD). The rule book rejects control characters only where it validates ids;
// elsewhere (a force-release reason, a handed-off holder, an intent id, a guard role) any JS
// string is legal. So every caller string is stored through this reversible escape, and every
// string read is decoded: the adapter returns exactly what it was given, whatever it was given.
//
// The escape is '\' itself, NUL and lone surrogates; everything else (quotes, SQL
// metacharacters, emoji as well-formed pairs, any script) is stored verbatim.

const NEEDS_ESCAPE = /[\\\0]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ESCAPABLE = /[\\\0]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function encodeText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(ESCAPABLE, (ch) => {
    if (ch === '\\') return '\\\\';
    if (ch === '\0') return '\\0';
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

export function decodeText(stored: string): string {
  if (!stored.includes('\\')) return stored;
  return stored.replace(/\\(\\|0|u[0-9a-f]{4})/g, (_, escape: string) => {
    if (escape === '\\') return '\\';
    if (escape === '0') return '\0';
    return String.fromCharCode(parseInt(escape.slice(1), 16));
  });
}
