import { mkdir, mkdtemp, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { updateLatest } from '../../src/report/json.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-latest-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('reports/latest', () => {
  it('eight runs pointing it at once all succeed, and it names one of them', async () => {
    // Removing the link and creating it again let the others' links get in the way: EISDIR.
    const ids = Array.from({ length: 8 }, (_, i) => `run-${i}`);
    for (const id of ids) await mkdir(join(dir, id));
    await Promise.all(ids.map((id) => updateLatest(dir, id)));
    expect(ids).toContain(await readlink(join(dir, 'latest')));
  });

  it('replaces a text file or a folder named latest', async () => {
    await mkdir(join(dir, 'run-a'));
    await writeFile(join(dir, 'latest'), 'old\n');
    await updateLatest(dir, 'run-a');
    expect(await readlink(join(dir, 'latest'))).toBe('run-a');
    await rm(join(dir, 'latest'));
    await mkdir(join(dir, 'latest'));
    await writeFile(join(dir, 'latest', 'x'), '');
    await updateLatest(dir, 'run-a');
    expect(await readlink(join(dir, 'latest'))).toBe('run-a');
  });
});
