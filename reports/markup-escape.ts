// Escaping for everything the reports print: violation messages, scope names and replay lines
// come from runs and may hold any character, and none of them may break the markup around them.

// Characters XML 1.0 forbids outright (C0 controls except tab, newline, carriage return; lone surrogates; U+FFFE/U+FFFF).
const FORBIDDEN_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Safe in XML, HTML and SVG text and in double- or single-quoted attributes. */
export function escapeMarkup(value: unknown): string {
  return String(value)
    .replace(FORBIDDEN_IN_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Plain text on one Markdown line: no raw HTML, no control characters, no line break. */
export function escapeMarkdown(value: unknown): string {
  return String(value).replace(FORBIDDEN_IN_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');
}

/** Safe inside one cell of a Markdown table. */
export function escapeMarkdownCell(value: unknown): string {
  return escapeMarkdown(String(value).replace(/\\/g, '\\\\')).replace(/\|/g, '\\|');
}

/** A Markdown code span that survives backticks inside the value. */
export function markdownCode(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}
