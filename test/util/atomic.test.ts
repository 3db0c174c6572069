import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChunksAtomic } from '../../src/util/atomic.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-atomic-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('writeChunksAtomic', () => {
  it('writes every piece in order, multi-byte text across buffer flushes and pieces larger than the buffer', async () => {
    const pieces = [
      'start ',
      ...Array.from({ length: 40_000 }, (_, i) => `case ${i}: café 🙂 ${'ж'.repeat(i % 7)}\n`),
      'x'.repeat(3 << 20), // bigger than the 1 MiB buffer on its own
      '🙂'.repeat(200_000), // surrogate pairs, 4 bytes each in UTF-8
      ' end',
    ];
    const file = join(dir, 'out.txt');
    await writeChunksAtomic(file, () => pieces);
    expect(await readFile(file, 'utf8')).toBe(pieces.join(''));
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('copies byte pieces as they are yielded, though the producer reuses their buffer', async () => {
    const reused = Buffer.alloc(4);
    const file = join(dir, 'bytes.txt');
    await writeChunksAtomic(file, function* () {
      yield 'é:';
      for (const word of ['abcd', 'efgh', 'ijkl']) {
        reused.write(word);
        yield reused;
      }
      yield Buffer.from('x'.repeat(2 << 20)); // bigger than the buffer on its own
      yield '!';
    });
    expect(await readFile(file, 'utf8')).toBe(`é:abcdefghijkl${'x'.repeat(2 << 20)}!`);
  });

  it('leaves the old file and no temp file when producing fails', async () => {
    const file = join(dir, 'kept.txt');
    await writeChunksAtomic(file, () => ['old']);
    await expect(
      writeChunksAtomic(file, function* () {
        yield 'new';
        throw new Error('renderer broke');
      }),
    ).rejects.toThrow('renderer broke');
    expect(await readFile(file, 'utf8')).toBe('old');
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
