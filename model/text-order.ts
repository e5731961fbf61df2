// The one order every list in the rule book uses (model/SEMANTICS.md clarification 12):
// ascending by UTF-16 code units, which is what `<` on JavaScript strings compares.

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
