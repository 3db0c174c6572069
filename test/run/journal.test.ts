import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal, readJournal } from '../../src/run/journal.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-journal-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const line = (n: number) => JSON.stringify({ key: `s/c${n}#0`, status: 'pass' });
const turn = () => new Promise((done) => setImmediate(done));

describe('journal', () => {
  it("writes a turn's lines at the end of that turn, in order, and every pending line on close", async () => {
    const file = join(dir, 'a.jsonl');
    const journal = openJournal(file);
    journal.appendLine(line(1));
    journal.appendLine(line(2));
    expect(readFileSync(file, 'utf8')).toBe(''); // still this turn
    await turn();
    expect(readFileSync(file, 'utf8')).toBe(`${line(1)}\n${line(2)}\n`);
    journal.appendLine(line(3));
    journal.close(); // no turn in between: close writes it
    expect(readFileSync(file, 'utf8')).toBe(`${line(1)}\n${line(2)}\n${line(3)}\n`);
    await turn(); // the timer was cleared: nothing is written twice, nothing throws on the closed fd
    expect((await readJournal(file)).results.map((r) => r.key)).toEqual(['s/c1#0', 's/c2#0', 's/c3#0']);
  });

  it('appends after a torn last line (resume after kill -9) without gluing the new line to it', async () => {
    const file = join(dir, 'b.jsonl');
    await writeFile(file, `${line(1)}\n{"key":"s/c2#0","sta`);
    const journal = openJournal(file);
    journal.appendLine(line(3));
    journal.flush();
    journal.close();
    const read = await readJournal(file);
    // The torn sample runs again; the line written after it starts on a line of its own.
    expect(read.results.map((r) => r.key)).toEqual(['s/c1#0', 's/c3#0']);
    expect(read.skipped).toBe(1);
  });
});
