import { describe, expect, it } from 'vitest';
import { parseXml } from './xml.js';

// The JUnit tests lean on this reader to reject malformed output, so it must really reject.
describe('parseXml (test helper)', () => {
  it.each([
    ['<a><b></a></b>', 'mismatched'],
    ['<a>1 < 2</a>', 'bad tag name'],
    ['<a>fish & chips</a>', "bad '<' or '&'"],
    ['<a x="1" x="2"/>', 'duplicate attribute'],
    ['<a x="<"/>', "bad '<' or '&'"],
    ['<a/><b/>', 'more than one root'],
    ['<a>', 'unclosed'],
    ['<a>\u0001</a>', 'forbidden character'],
    ['<a>&#1;</a>', 'forbidden character'],
    ['<a x=1/>', 'bad attribute'],
  ])('rejects %j', (xml, why) => {
    expect(() => parseXml(xml)).toThrow(why);
  });

  it('reads elements, attributes and decoded text', () => {
    const root = parseXml(
      '<?xml version="1.0"?>\n<a k="x &amp; &quot;y&quot;&#10;z"><b>1 &lt; 2</b><c/></a>',
    );
    expect(root.attrs.k).toBe('x & "y"\nz');
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c']);
    expect(root.children[0]!.text).toBe('1 < 2');
  });
});
