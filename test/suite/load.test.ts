import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { loadSuites, readSuiteCases } from '../../src/suite/load.js';
import type { Diagnostic } from '../../src/util/errors.js';
import { MAX_FILE_BYTES } from '../../src/util/limits.js';

const fixtures = fileURLToPath(new URL('../fixtures/suites', import.meta.url));
const suite = (name: string, caseId = 'one') =>
  `suite: ${name}\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: ${caseId}\n    prompt: hi\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-suites-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function diagnosticsOf(paths: string[], options: { allowAlias?: boolean } = {}): Promise<Diagnostic[]> {
  const error = await loadSuites(paths, { cwd: dir, ...options }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).diagnostics;
}

describe('loadSuites', () => {
  it('holds every case when the suites together are within the hold, and none past it (each read again from its file)', async () => {
    const two = (name: string) =>
      `suite: ${name}\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: one\n    prompt: hi\n  - id: two\n    prompt: ho\n` +
      `    expect:\n      - judge: { model: openai/gpt-4o-mini, service: grader, rubric: kind }\n`;
    for (const name of ['a', 'b', 'c']) await writeFile(join(dir, `${name}.yaml`), two(name));
    const within = await loadSuites(['.'], { cwd: dir, cases: { hold: 6 } });
    expect(within.map((s) => [s.cases.length, s.source])).toEqual([
      [2, undefined],
      [2, undefined],
      [2, undefined],
    ]);
    // Past the hold at the third file: the first two let their cases go too.
    const past = await loadSuites(['.'], { cwd: dir, cases: { hold: 5 } });
    expect(past.map((s) => [s.cases.length, s.counts?.cases, s.source?.path])).toEqual([
      [0, 2, join(dir, 'a.yaml')],
      [0, 2, join(dir, 'b.yaml')],
      [0, 2, join(dir, 'c.yaml')],
    ]);
    // Each names the judges its cases call, as a suite loaded without its cases does
    // (pre-flight checks their services before anything is sent).
    for (const s of past) expect(s.judges).toEqual([{ service: 'grader', model: 'openai/gpt-4o-mini' }]);
    const again: string[] = [];
    for await (const c of readSuiteCases(past[0]!, { cwd: dir })) again.push(c.id);
    expect(again).toEqual(['one', 'two']);
  });

  it('asks for the model catalog once, and only when a file names an alias', async () => {
    await writeFile(join(dir, 'a.yaml'), suite('a'));
    let asked = 0;
    const fetchCatalog = async () => {
      asked++;
      return { source: 'the test catalog', models: [{ id: 'openai/gpt-4o-mini', alias_target: null }] };
    };
    await loadSuites(['.'], { cwd: dir, fetchCatalog });
    expect(asked).toBe(0);
    const alias = (name: string) =>
      `suite: ${name}\nservice: router\nmodel: ~openai/gpt-mini-latest\ncases:\n  - id: one\n    prompt: hi\n`;
    await writeFile(join(dir, 'b.yaml'), alias('b'));
    await writeFile(join(dir, 'c.yaml'), alias('c'));
    const error = await loadSuites(['.'], { cwd: dir, fetchCatalog }).catch((e: unknown) => e);
    expect(asked).toBe(1);
    const hints = (error as InputError).diagnostics.map((d) => d.hint ?? '');
    expect(hints).toHaveLength(2);
    for (const hint of hints) expect(hint).toContain('the test catalog: openai/gpt-4o-mini');
  });

  it('expands folders recursively, sorted, skipping hidden entries and non-YAML files', async () => {
    await cp(join(fixtures, 'folder-a'), join(dir, 'suites'), { recursive: true });
    const suites = await loadSuites([], { cwd: dir });
    expect(suites.map((s) => [s.suite, s.file])).toEqual([
      ['folder-two', join('suites', 'nested', 'two.yml')],
      ['folder-one', join('suites', 'one.yaml')],
    ]);
    expect(suites[1]?.location).toEqual({ file: join('suites', 'one.yaml'), line: 1, column: 8 });
  });

  it('reads each file once even when named twice or through a folder and a symlink', async () => {
    await writeFile(join(dir, 'a.yaml'), suite('a'));
    await mkdir(join(dir, 'more'));
    await symlink(join(dir, 'a.yaml'), join(dir, 'more', 'link.yaml'));
    await symlink(dir, join(dir, 'more', 'loop'));
    const suites = await loadSuites(['a.yaml', '.', join(dir, 'a.yaml')], { cwd: dir });
    expect(suites.map((s) => s.suite)).toEqual(['a']);
  });

  it('collects the problems of every file before throwing, in one InputError', async () => {
    await cp(join(fixtures, 'broken', 'unknown-key.yaml'), join(dir, 'one.yaml'));
    await cp(join(fixtures, 'broken', 'alias-model.yaml'), join(dir, 'two.yaml'));
    await writeFile(join(dir, 'fine.yaml'), suite('fine'));
    const found = await diagnosticsOf(['.']);
    expect(found.map((d) => [d.file, d.line, d.column])).toEqual([
      ['one.yaml', 7, 5],
      ['two.yaml', 3, 8],
    ]);
  });

  it('passes allowAlias through', async () => {
    await cp(join(fixtures, 'broken', 'alias-model.yaml'), join(dir, 'a.yaml'));
    const suites = await loadSuites(['a.yaml'], { cwd: dir, allowAlias: true });
    expect(suites[0]?.model).toBe('~anthropic/claude-opus-latest');
  });

  it('reports a suite name used twice at both places, ignoring letter case', async () => {
    await writeFile(join(dir, 'a.yaml'), `# first\n${suite('refunds')}`);
    await writeFile(join(dir, 'b.yaml'), suite('Refunds'));
    const found = await diagnosticsOf(['.']);
    expect(found).toEqual([
      expect.objectContaining({
        file: 'a.yaml',
        line: 2,
        column: 8,
        message: "suite name 'refunds' is also used in b.yaml:1",
      }),
      expect.objectContaining({
        file: 'b.yaml',
        line: 1,
        column: 8,
        message: "suite name 'Refunds' is also used in a.yaml:2",
      }),
    ]);
    expect(found[0]?.hint).toContain('must be unique');
  });

  it.each([
    ['a missing file', 'nope.yaml', 'nope.yaml', 'no such file or folder'],
    ['a missing folder', 'gone/', 'gone', 'no such file or folder'],
  ])('names %s', async (_what, path, shown, message) => {
    const [d] = await diagnosticsOf([path]);
    expect(d).toMatchObject({ file: shown, line: 1, column: 1, message });
  });

  it('names a folder without suites', async () => {
    await mkdir(join(dir, 'empty', '.git'), { recursive: true });
    await writeFile(join(dir, 'empty', '.git', 'x.yaml'), suite('hidden'));
    await writeFile(join(dir, 'empty', 'notes.txt'), 'no suites here');
    const [d] = await diagnosticsOf(['empty']);
    expect(d).toMatchObject({ file: 'empty', message: 'no suites in this folder (no .yaml or .yml files)' });
  });

  it.each([
    ['binary', Buffer.from([0x73, 0x75, 0x00, 0x01, 0x02]), 'binary file'],
    ['latin-1', Buffer.from('suite: caf\xe9\n', 'latin1'), 'not valid UTF-8'],
    ['oversized', Buffer.alloc(MAX_FILE_BYTES + 1, 0x20), 'file is too large'],
  ])('rejects a %s file with a diagnostic', async (name, bytes, message) => {
    await writeFile(join(dir, `${name}.yaml`), bytes);
    const [d] = await diagnosticsOf([`${name}.yaml`]);
    expect(d).toMatchObject({ file: `${name}.yaml`, line: 1, column: 1 });
    expect(d?.message).toContain(message);
  });

  it('accepts a UTF-8 file with a byte-order mark and non-ASCII text', async () => {
    await writeFile(join(dir, 'bom.yaml'), `\ufeff${suite('bom')}    expect: [{ contains: "café ✓" }]\n`);
    const [s] = await loadSuites(['bom.yaml'], { cwd: dir });
    expect(s?.cases[0]?.expect).toEqual([{ type: 'contains', value: 'café ✓' }]);
  });

  it('shows files outside cwd by absolute path', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'driftcheck-outside-'));
    try {
      await writeFile(join(outside, 'x.yaml'), suite('outside'));
      const [s] = await loadSuites([join(outside, 'x.yaml')], { cwd: dir });
      expect(s?.file).toBe(join(outside, 'x.yaml'));
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
