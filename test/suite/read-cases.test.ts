import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError, formatDiagnostic } from '../../src/util/errors.js';
import { type LoadSuitesOptions, loadSuites, readSuiteCases } from '../../src/suite/load.js';
import type { Suite, SuiteCase } from '../../src/suite/types.js';
import type { Diagnostic } from '../../src/util/errors.js';
import { BROKEN_TABLES, SAY, oneTable } from '../helpers/broken-tables.js';
import { makeProject } from '../helpers/cli.js';

// Written cases, a CSV table and a JSONL table, with a suite system prompt and params.
const SUITE = `suite: mixed
service: router
model: openai/gpt-4o-mini
system: Be brief.
params: { max_tokens: 64, temperature: 0 }
cases:
  - id: written
    prompt: "Say exactly: written"
    expect: [{ equals: written }]
  - id: chat
    messages:
      - { role: user, content: hi }
      - { role: assistant, content: hello }
      - { role: user, content: again }
    repeat: 3
tables:
  - path: ../data/sums.csv
    case:
      id: "sum-{{n}}"
      prompt: "{{question}}"
      system: "{{system}}"
      expect:
        - contains: "{{answer}}"
  - path: ../data/phrases.jsonl
    case:
      id: "say-{{id}}"
      prompt: "Say exactly: {{text}}"
      expect: "{{checks}}"
      params: { temperature: "{{t}}" }
`;

// A byte-order mark, CRLF, a quoted comma, line breaks inside fields, doubled quotes, unicode.
const SUMS =
  '\ufeffn,question,answer,system\r\n' +
  '1,What is 2 + 3?,5,Answer in digits.\r\n' +
  '2,"Context: apples, pears\r\nWhat is 12 + 30?",42,"Two\nlines"\r\n' +
  '3,"Grüße — what is 7 * 6?",42,世界\r\n' +
  '4,"Say exactly: ""quoted""",quoted,x\r\n';

const PHRASES = [
  { id: 'hello', text: 'Hello there', checks: [{ equals: 'Hello there' }], t: 0.5 },
  {
    id: 'unicode',
    text: 'Grüße, 世界 🎉',
    checks: [
      { contains: '世界' },
      { judge: { model: 'openai/gpt-4o-mini', service: 'grader', rubric: 'kind' } },
    ],
    t: 0,
  },
  { id: 'number', text: '42', checks: [], t: 1 },
]
  .map((row) => JSON.stringify(row))
  .join('\r\n');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function project(files: Record<string, string>) {
  const p = await makeProject(files);
  cleanups.push(p.cleanup);
  return p.dir;
}

const mixed = () =>
  project({
    'suites/mixed.yaml': SUITE,
    'data/sums.csv': SUMS,
    'data/phrases.jsonl': `\ufeff${PHRASES}\r\n`,
  });

async function readAll(suite: Suite, options: LoadSuitesOptions): Promise<SuiteCase[]> {
  const out: SuiteCase[] = [];
  for await (const c of readSuiteCases(suite, options)) out.push(c);
  return out;
}

async function diagnosticsOf(paths: string[], options: LoadSuitesOptions): Promise<Diagnostic[]> {
  const error: unknown = await loadSuites(paths, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).diagnostics;
}

describe("loadSuites with cases: 'none', and readSuiteCases", () => {
  it('reads again, one at a time, every case loadSuites keeps, equal and in its order (inline, CSV, JSONL)', async () => {
    const dir = await mixed();
    const [kept] = await loadSuites(['suites'], { cwd: dir });
    const [counted] = await loadSuites(['suites'], { cwd: dir, cases: 'none' });
    expect(kept!.cases.map((c) => c.id)).toEqual([
      'written',
      'chat',
      'sum-1',
      'sum-2',
      'sum-3',
      'sum-4',
      'say-hello',
      'say-unicode',
      'say-number',
    ]);
    // The fields in every corner: a field's line breaks, quotes and unicode reach the case as written.
    const byId = new Map(kept!.cases.map((c) => [c.id, c]));
    expect(byId.get('sum-2')?.messages).toEqual([
      { role: 'system', content: 'Two\nlines' },
      { role: 'user', content: 'Context: apples, pears\r\nWhat is 12 + 30?' },
    ]);
    expect(byId.get('sum-2')?.location).toEqual({ file: join('data', 'sums.csv'), line: 3, column: 1 });
    expect(byId.get('sum-4')?.messages.at(-1)?.content).toBe('Say exactly: "quoted"');
    expect(byId.get('say-unicode')?.messages.at(-1)?.content).toBe('Say exactly: Grüße, 世界 🎉');
    expect(byId.get('say-hello')?.params).toEqual({ max_tokens: 64, temperature: 0.5 });

    expect(counted!.cases).toEqual([]);
    expect(counted!.counts).toEqual({ cases: 9, samples: 11 });
    // Each table's bytes as validated, hashed in the pieces it is read again in (one each here).
    const hashed = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(counted!.source).toEqual({
      path: join(dir, 'suites/mixed.yaml'),
      digest: hashed(SUITE),
      tablePieces: [[hashed(SUMS)], [hashed(`\ufeff${PHRASES}\r\n`)]],
    });
    expect(counted!.judges).toEqual([{ service: 'grader', model: 'openai/gpt-4o-mini' }]);
    // Everything else is what loadSuites gives when it keeps the cases (which has no source to read again).
    expect(kept!.source).toBeUndefined();
    const { cases: _cases, judges: _judges, source: _source, ...rest } = counted!;
    const { cases: _kept, ...keptRest } = kept!;
    expect(rest).toEqual(keptRest);

    // Checked only (validate): the same counts and judges, and nothing to read it again with.
    const [checked] = await loadSuites(['suites'], { cwd: dir, cases: 'checked' });
    const { source: _none, ...checkedRest } = counted!;
    expect(checked).toEqual(checkedRest);
    await expect(readAll(checked!, { cwd: dir })).rejects.toThrow(/was not loaded by loadSuites/);

    expect(await readAll(counted!, { cwd: dir })).toEqual(kept!.cases);
    // A suite that holds its cases gives them without reading anything again: its files gone, still.
    await rm(join(dir, 'suites'), { recursive: true });
    await rm(join(dir, 'data'), { recursive: true });
    expect(await readAll(kept!, { cwd: dir })).toEqual(kept!.cases);
    await expect(readAll(counted!, { cwd: dir })).rejects.toThrow();
  });

  it('counts no samples when a case is repeat: auto', async () => {
    const dir = await project({
      'suites/a.yaml': `${oneTable('../data/t.jsonl', SAY)}      repeat: "{{n}}"\n`,
      'data/t.jsonl': '{"id": "a", "text": "x", "n": 2}\n{"id": "b", "text": "y", "n": "auto"}\n',
    });
    const [suite] = await loadSuites(['suites'], { cwd: dir, cases: 'none' });
    expect(suite!.counts).toEqual({ cases: 3, samples: null });
  });

  it('refuses a table that changed since the suite was loaded, before its first case, naming it', async () => {
    const dir = await mixed();
    const [suite] = await loadSuites(['suites'], { cwd: dir, cases: 'none' });
    await writeFile(
      join(dir, 'data/phrases.jsonl'),
      `${PHRASES}\n{"id": "new", "text": "x", "checks": [], "t": 0}\n`,
    );
    const got: string[] = [];
    const error = await (async () => {
      for await (const c of readSuiteCases(suite!, { cwd: dir })) got.push(c.id);
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    // The cases before the changed table were read; none of it.
    expect(got).toEqual(['written', 'chat', 'sum-1', 'sum-2', 'sum-3', 'sum-4']);
    const file = join('data', 'phrases.jsonl');
    expect((error as InputError).message).toBe(
      `${file}: table ${file} of suite mixed changed since the run was planned (3 rows then)\n` +
        '  → the results already journaled are kept; restore the table, or run again',
    );
  });

  it('reads a table again a piece at a time, and refuses it at the first piece that changed while its rows were read', async () => {
    // More than one piece (256 KB) of rows, so the change lands after the reading began.
    const rows = (tag: string) =>
      Array.from({ length: 8000 }, (_, i) =>
        JSON.stringify({ n: i, text: `${tag} row ${i} of the table` }),
      ).join('\n');
    const dir = await project({
      'suites/big.yaml':
        'suite: big\nservice: router\nmodel: openai/gpt-4o-mini\ntables:\n  - path: ../data/big.jsonl\n    case: { id: "r-{{n}}", prompt: "{{text}}" }\n',
      'data/big.jsonl': rows('first'),
    });
    const [suite] = await loadSuites(['suites'], { cwd: dir, cases: 'none' });
    expect(suite!.source!.tablePieces[0]!.length).toBeGreaterThan(1);
    // Unchanged, every row comes back as loadSuites counted it.
    expect((await readAll(suite!, { cwd: dir })).map((c) => c.id)).toHaveLength(8000);
    const got: string[] = [];
    const error = await (async () => {
      for await (const c of readSuiteCases(suite!, { cwd: dir })) {
        if (got.push(c.messages.at(-1)!.content as string) === 1)
          await writeFile(join(dir, 'data/big.jsonl'), rows('other'));
      }
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain(
      'table data/big.jsonl of suite big changed since the run was planned',
    );
    // Refused at the first piece that changed: the rows before it, none made from the new bytes.
    expect(got.length).toBeGreaterThan(1);
    expect(got.length).toBeLessThan(8000);
    expect(got.filter((prompt) => !prompt.startsWith('first '))).toEqual([]);
  });

  it('refuses an emptied table, and a suite file that changed (its text, or now broken)', async () => {
    const dir = await mixed();
    const [suite] = await loadSuites(['suites'], { cwd: dir, cases: 'none' });
    await writeFile(join(dir, 'data/sums.csv'), '');
    await expect(readAll(suite!, { cwd: dir })).rejects.toThrow(
      /table data\/sums\.csv of suite mixed changed since the run was planned \(4 rows then\)/,
    );
    await writeFile(join(dir, 'suites/mixed.yaml'), SUITE.replace('Be brief.', 'Be short.'));
    await expect(readAll(suite!, { cwd: dir })).rejects.toThrow(
      /suite file suites\/mixed\.yaml of suite mixed changed since the run was planned \(9 cases then\)/,
    );
    await writeFile(join(dir, 'suites/mixed.yaml'), 'suite: [');
    const broken = await readAll(suite!, { cwd: dir }).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(InputError);
    expect((broken as InputError).diagnostics[0]?.message).toContain('changed since the run was planned');
  });

  it.each(BROKEN_TABLES)(
    '$name: the same diagnostics whether the cases are kept or not',
    async ({ files, suite, expected }) => {
      const dir = await project({ 'suites/t.yaml': suite, ...files });
      const kept = await diagnosticsOf(['suites'], { cwd: dir });
      const counted = await diagnosticsOf(['suites'], { cwd: dir, cases: 'none' });
      expect(counted).toEqual(kept);
      const text = counted.map(formatDiagnostic).join('\n');
      for (const line of expected) expect(text).toContain(line);
    },
  );

  it('lists the first 20 rows with problems, then counts the rest, cases kept or not', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => `{"id": "bad id ${i}", "text": "x"}`).join('\n');
    const dir = await project({ 'suites/t.yaml': oneTable('../data/t.jsonl', SAY), 'data/t.jsonl': rows });
    const kept = await diagnosticsOf(['suites'], { cwd: dir });
    expect(await diagnosticsOf(['suites'], { cwd: dir, cases: 'none' })).toEqual(kept);
    expect(new Set(kept.map((d) => d.line)).size).toBe(21);
    expect(kept.at(-1)).toMatchObject({
      line: 21,
      message: 'and 5 more rows of this table with problems, from this one on',
    });
  });

  it('holds the sample total over written and generated cases, cases kept or not', async () => {
    const dir = await project({
      'suites/t.yaml': `${oneTable('../data/t.jsonl', SAY)}      repeat: 600\n`,
      'data/t.jsonl': Array.from({ length: 200 }, (_, i) => `{"id": "r${i}", "text": "x"}`).join('\n'),
    });
    const kept = await diagnosticsOf(['suites'], { cwd: dir });
    expect(await diagnosticsOf(['suites'], { cwd: dir, cases: 'none' })).toEqual(kept);
    expect(kept.map(formatDiagnostic).join('\n')).toContain(
      'suites/t.yaml:1:8: the suite plans 120001 samples (cases × repeats); at most 100000',
    );
  });
});
