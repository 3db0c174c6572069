import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TooLargeError } from '../../src/util/errors.js';
import { type ReadLimit, readBounded, readBoundedLines } from '../../src/util/bounded-read.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-bounded-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const limit = (bytes: number, lineBytes?: number): ReadLimit => ({
  kind: 'a test file',
  bytes,
  ...(lineBytes === undefined ? {} : { lineBytes }),
  remedy: 'make it smaller',
});

async function lines(file: string, l: ReadLimit): Promise<string[]> {
  const out: string[] = [];
  for await (const line of readBoundedLines(file, l)) out.push(line);
  return out;
}

describe('bounded reads', () => {
  it('read a file of exactly the limit, and refuse one byte more, naming the file, the limit and the remedy', async () => {
    const file = join(dir, 'exact');
    await writeFile(file, 'x'.repeat(1024));
    expect((await readBounded(file, limit(1024))).length).toBe(1024);
    const error = await readBounded(file, limit(1023)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooLargeError);
    expect((error as TooLargeError).exitCode).toBe(2);
    expect((error as TooLargeError).message).toBe(
      `${file}: file is too large: more than the 1023 bytes driftcheck reads of a test file (reading stopped there); make it smaller`,
    );
  });

  it('refuse a plain file past the limit by its size, before reading any of it', async () => {
    // 9 GiB, sparse: read up to an 8 GiB limit, it would need a buffer larger than Node makes.
    const file = join(dir, 'huge');
    const handle = await open(file, 'w');
    await handle.truncate(9 * 1024 ** 3);
    await handle.close();
    const error = await readBounded(file, limit(8 * 1024 ** 3)).catch((e: unknown) => e);
    await rm(file);
    expect(error).toBeInstanceOf(TooLargeError);
    expect((error as TooLargeError).message).toContain('file is too large: more than the 8 GiB');
  });

  it('split lines across reads, drop \\r before \\n, and keep a last line without \\n', async () => {
    const file = join(dir, 'lines');
    const long = 'é'.repeat(200_000); // 400 KB: spans the 256 KiB reads, multi-byte characters at the seams
    await writeFile(file, `a\r\n${long}\n\nlast`);
    expect(await lines(file, limit(1e9))).toEqual(['a', long, '', 'last']);
  });

  it('refuse a line past the line limit, with its number, holding no more than the limit', async () => {
    const file = join(dir, 'long-line');
    await writeFile(file, `short\n${'x'.repeat(600_000)}\nafter\n`);
    await expect(lines(file, limit(1e9, 500_000))).rejects.toThrow(
      /line 2 is too long: more than the 500000 bytes driftcheck reads of a line of a test file/,
    );
  });
});
