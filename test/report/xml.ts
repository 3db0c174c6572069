/**
 * A deliberately strict, tiny XML 1.0 reader for tests: it throws on anything that is not
 * well-formed (bad nesting, stray `<` or `&`, duplicate attributes, characters XML forbids)
 * and returns the element tree with entity references decoded.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text content directly inside this element. */
  text: string;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/;
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decode(raw: string, where: number): string {
  if (/<|&(?!(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)/.test(raw))
    throw new Error(`bad '<' or '&' near offset ${where}: ${JSON.stringify(raw.slice(0, 60))}`);
  return raw.replace(/&(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);/g, (_m, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const ch = String.fromCodePoint(code);
      if (FORBIDDEN.test(ch)) throw new Error(`reference to a forbidden character &${ref};`);
      return ch;
    }
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[ref as 'lt'];
  });
}

export function parseXml(xml: string): XmlElement {
  const bad = FORBIDDEN.exec(xml);
  if (bad) throw new Error(`forbidden character U+${bad[0].codePointAt(0)!.toString(16)} at ${bad.index}`);
  let i = 0;
  if (xml.startsWith('<?xml')) {
    i = xml.indexOf('?>');
    if (i < 0) throw new Error('unterminated XML declaration');
    i += 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    const top = stack[stack.length - 1];
    if (top) top.text += decode(text, i);
    else if (text.trim() !== '') throw new Error(`text outside the root element at ${i}`);
    if (lt < 0) break;
    i = lt;
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i);
      if (end < 0) throw new Error('unterminated comment');
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i);
      if (end < 0 || !top) throw new Error('bad CDATA section');
      top.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('</', i)) {
      const name = NAME.exec(xml.slice(i + 2))?.[0];
      const end = xml.indexOf('>', i);
      const open = stack.pop();
      if (!name || !open || open.name !== name || xml.slice(i + 2 + name.length, end).trim() !== '')
        throw new Error(`mismatched closing tag </${name}> at ${i} (open: ${open?.name})`);
      i = end + 1;
    } else {
      i++;
      const name = NAME.exec(xml.slice(i))?.[0];
      if (!name) throw new Error(`bad tag name at ${i}`);
      i += name.length;
      const el: XmlElement = { name, attrs: {}, children: [], text: '' };
      for (;;) {
        const ws = /^\s*/.exec(xml.slice(i))![0].length;
        i += ws;
        if (xml.startsWith('/>', i) || xml[i] === '>') break;
        if (ws === 0) throw new Error(`missing space before attribute at ${i}`);
        const m = /^([A-Za-z_:][A-Za-z0-9_:.-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(xml.slice(i));
        if (!m) throw new Error(`bad attribute at ${i}: ${JSON.stringify(xml.slice(i, i + 40))}`);
        const attrName = m[1]!;
        if (attrName in el.attrs) throw new Error(`duplicate attribute ${attrName} at ${i}`);
        el.attrs[attrName] = decode(m[3] ?? m[4] ?? '', i);
        i += m[0].length;
      }
      const selfClosing = xml.startsWith('/>', i);
      i += selfClosing ? 2 : 1;
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else if (root) throw new Error('more than one root element');
      else root = el;
      if (!selfClosing) stack.push(el);
    }
  }
  if (stack.length > 0) throw new Error(`unclosed element <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every descendant element with this name, in document order. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...findAll(c, name)]);
}
