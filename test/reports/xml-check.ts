// A minimal XML reader for the tests: enough to prove a document is well-formed (balanced,
// quoted attributes, only known entities, nothing raw that markup forbids) and to read it back.

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

function decode(raw: string, where: string): string {
  if (raw.replace(ENTITY, '').includes('&')) throw new Error(`bare & in ${where}: ${raw}`);
  if (raw.includes('<')) throw new Error(`raw < in ${where}: ${raw}`);
  if (FORBIDDEN.test(raw)) throw new Error(`control character in ${where}`);
  return raw.replace(ENTITY, (e) => {
    const named: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };
    if (named[e] !== undefined) return named[e]!;
    return String.fromCodePoint(e.startsWith('&#x') ? parseInt(e.slice(3), 16) : parseInt(e.slice(2), 10));
  });
}

export function parseXml(document: string): XmlElement {
  let rest = document.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/;
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (text.length > 0) stack.at(-1)!.text += decode(text, `text of <${stack.at(-1)!.name}>`);
    if (lt === -1) break;
    rest = rest.slice(lt);
    const m = tag.exec(rest);
    if (m === null) throw new Error(`malformed tag at: ${rest.slice(0, 60)}`);
    const [whole, closing, name, attrText, selfClosing] = m;
    rest = rest.slice(whole.length);
    if (closing === '/') {
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}>`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of attrText!.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      if (a[1]! in attributes) throw new Error(`duplicate attribute ${a[1]} on <${name}>`);
      attributes[a[1]!] = decode(a[2] ?? a[3] ?? '', `attribute ${a[1]} of <${name}>`);
    }
    const element: XmlElement = { name: name!, attributes, children: [], text: '' };
    stack.at(-1)!.children.push(element);
    if (selfClosing !== '/') stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  if (root.children.length !== 1 || root.text.trim() !== '') throw new Error('a document has exactly one root element');
  return root.children[0]!;
}

export function descendants(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);
}
