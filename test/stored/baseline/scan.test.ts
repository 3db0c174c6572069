import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkObject, type Walked } from '../../../src/stored/baseline/scan.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-scan-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function walkFile(text: string, batch: number, windowBytes: number): Promise<Walked[]> {
  const file = join(dir, 'b.json');
  await writeFile(file, text);
  const handle = await open(file, 'r');
  try {
    const walked: Walked[] = [];
    const size = Buffer.byteLength(text);
    for await (const w of walkObject(handle, size, 'cases', batch, windowBytes)) walked.push(w);
    return walked;
  } finally {
    await handle.close();
  }
}

/** What JSON.parse makes of the file, rebuilt from what the walk gave. */
function rebuilt(walked: Walked[], bytes: Buffer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const w of walked) {
    if (w.kind === 'unwalkable') throw new Error('unwalkable');
    if (w.kind === 'member') out[w.key] = JSON.parse(w.text);
    else {
      const cases = (out.cases ??= {}) as Record<string, unknown>;
      const parsed = JSON.parse(w.text) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(w.members.map((m) => m.key));
      for (const m of w.members) {
        // Each member's place in the file holds its value (and its key's quote).
        expect(JSON.parse(bytes.toString('utf8', m.start, m.end))).toEqual(parsed[m.key]);
        expect(bytes[m.keyStart]).toBe(0x22);
        Object.defineProperty(cases, m.key, { value: parsed[m.key], enumerable: true, writable: true });
      }
    }
  }
  return out;
}

const sample = {
  schema_version: 1,
  suite: 'a "quoted" } suite',
  cases: {
    plain: { n: 12345, s: 'text' },
    'tricky "}{][': { s: 'a } b { c ] d [ e \\" f \u00fc \u4e16 \\\\', list: [1, [2, { x: '}' }], 'y'] },
    __proto__x: null,
    num: 3.25e10,
    t: true,
    'esc\\aped\nkey': { deep: { deeper: [[[]]] } },
    empty: {},
    last: -0.5,
  },
  after: ['the head may follow the cases', 7],
};

describe('walkObject', () => {
  it('gives the members as JSON.parse reads them, whatever the window and batch sizes', async () => {
    for (const text of [JSON.stringify(sample), `\r\n\t ${JSON.stringify(sample, null, 2)} \n\n`]) {
      const bytes = Buffer.from(text);
      for (const batch of [1, 3, 100])
        for (let windowBytes = 1; windowBytes <= bytes.length + 1; windowBytes += windowBytes < 40 ? 1 : 17) {
          const walked = await walkFile(text, batch, windowBytes);
          expect(rebuilt(walked, bytes), `batch ${batch}, window ${windowBytes}`).toEqual(JSON.parse(text));
          for (const w of walked) if (w.kind === 'inner') expect(w.members.length).toBeLessThanOrEqual(batch);
        }
    }
  });

  it('says what it cannot walk, at every window size, so the caller reads the file whole', async () => {
    const good = JSON.stringify(sample);
    const bad = [
      good.slice(0, -1),
      good.slice(0, good.indexOf('"num"')),
      `${good} trailing`,
      good.replace('"t":true', '"t":true,'),
      good.replace('"t":true', '"t":'),
      good.replace('"t":true', '"t" true'),
      `{"cases":{"a":1},"cases":{"b":2}}`,
      `[${good}]`,
      '',
      '   ',
    ];
    for (const text of bad)
      for (const windowBytes of [1, 2, 5, 64, 1 << 20]) {
        const walked = await walkFile(text, 2, windowBytes);
        expect(walked.at(-1), `${JSON.stringify(text.slice(-30))}, window ${windowBytes}`).toEqual({
          kind: 'unwalkable',
        });
      }
  });

  it('reads only the size it was given: bytes appended since are not walked', async () => {
    const file = join(dir, 'b.json');
    const good = JSON.stringify(sample);
    await writeFile(file, `${good}{"more":1}`);
    const handle = await open(file, 'r');
    const walked: Walked[] = [];
    for await (const w of walkObject(handle, Buffer.byteLength(good), 'cases', 10, 8)) walked.push(w);
    await handle.close();
    expect(rebuilt(walked, Buffer.from(good))).toEqual(sample);
  });
});
