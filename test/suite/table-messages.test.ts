import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSuites } from '../../src/suite/load.js';
import { tableCaseMessages } from '../../src/suite/table-messages.js';

// A report makes the prompts of cases planned as table rows (journal 5) from the template
// the journal kept and the table alone: they must be the prompts the run sent.
describe('a table case’s prompt made again from its journaled template', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-table-messages-'));
    await writeFile(
      join(dir, 's.yaml'),
      [
        'suite: s',
        'service: router',
        'model: openai/gpt-4o-mini',
        'system: Be brief.',
        'tables:',
        '  - path: q.csv',
        '    case: { id: "csv-{{n}}", prompt: "Q: {{q}}" }',
        '  - path: m.jsonl',
        '    case:',
        '      id: "m-{{n}}"',
        '      system: "{{sys}}"',
        '      messages: [{ role: user, content: "{{q}}" }, { role: assistant, content: "ok" }, { role: user, content: "{{more}}" }]',
        '',
      ].join('\n'),
    );
    // A BOM, CRLF, a quoted comma and a line break inside a field, unicode.
    await writeFile(join(dir, 'q.csv'), '\ufeffn,q\r\n1,"a, b"\r\n2,"two\nlines ✓"\r\n');
    await writeFile(
      join(dir, 'm.jsonl'),
      `${JSON.stringify({ n: 1, sys: 'Be terse.', q: 'hi 🙂', more: 'and?' })}\r\n${JSON.stringify({ n: 2, sys: 'x', q: 'yo', more: '' })}\n`,
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('gives every row’s id and messages as loadSuites made them', async () => {
    const [suite] = await loadSuites([join(dir, 's.yaml')], { cwd: dir });
    const made: unknown[] = [];
    for (const [i, table] of suite!.tables!.entries()) {
      // The file's bytes as they are, a byte-order mark and all.
      const bytes = await readFile(join(dir, ['q.csv', 'm.jsonl'][i]!));
      for (const c of tableCaseMessages({ ...table, case: table.case! }, [bytes], suite!.system))
        made.push(c);
    }
    expect(made).toEqual(suite!.cases.map((c) => ({ id: c.id, messages: c.messages })));
    expect(made).toHaveLength(4);
  });
});
