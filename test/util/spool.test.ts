import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpooledFile } from '../../src/util/spool.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-spool-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('SpooledFile', () => {
  it('writes head, every piece (through its temp file) and tail; a part moved in keeps its bytes', async () => {
    const file = new SpooledFile(dir, 'out.txt');
    const part = new SpooledFile(dir, 'out.txt.part');
    const lines = Array.from({ length: 60_000 }, (_, i) => `case ${i}: café 🙂 ${'ж'.repeat(i % 7)}\n`);
    // Past the 1 MiB buffer, so both go through their temp files (a multi-byte character
    // falls across the pieces they are read back in).
    for (const line of lines.slice(0, 30_000)) await file.write(line);
    for (const line of lines.slice(30_000)) await part.write(line);
    await part.moveTo(file);
    await file.write(Buffer.from('bytes 🙂\n'));
    const small = new SpooledFile(dir, 'small.part');
    await small.write('held in memory only\n');
    await small.moveTo(file);
    const path = await file.finish('head\n', 'tail\n');
    expect(await readFile(path, 'utf8')).toBe(`head\n${lines.join('')}bytes 🙂\nheld in memory only\ntail\n`);
    expect((await readdir(dir)).filter((f) => f.endsWith('.spool') || f.endsWith('.tmp'))).toEqual([]);
  });
});
