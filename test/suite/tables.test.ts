import { describe, expect, it } from 'vitest';
import { parseSuite } from '../../src/suite/parse.js';
import { csv } from '../../src/suite/sources/csv.js';
import type { TableFormat } from '../../src/suite/sources/types.js';
import type { Diagnostic } from '../../src/util/errors.js';
import { jsonl } from '../../src/suite/sources/jsonl.js';
import { compileTemplate, placeholdersOf } from '../../src/suite/template.js';

const fillTemplate = (template: unknown, values: Record<string, unknown>) =>
  compileTemplate(template).fill(values);

describe('compileTemplate', () => {
  const row = { list: [{ contains: 'a' }], n: 3, none: null, text: 'x y' };

  it('a text that is one placeholder alone takes the value with its type', () => {
    expect(fillTemplate({ expect: '{{list}}', repeat: '{{ n }}', x: '{{none}}' }, row).value).toEqual({
      expect: [{ contains: 'a' }],
      repeat: 3,
      x: null,
    });
  });

  it('inside longer text a value is written as text: strings as they are, the rest as JSON', () => {
    expect(fillTemplate('{{text}} · {{n}} · {{list}} · {{none}}', row).value).toBe(
      'x y · 3 · [{"contains":"a"}] · null',
    );
  });

  it('keys are not templated, and a __proto__ key stays an own key', () => {
    const filled = fillTemplate(JSON.parse('{"__proto__": {"{{text}}": "{{n}}"}}'), row).value as object;
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    expect(Object.entries(filled)).toEqual([['__proto__', { '{{text}}': 3 }]]);
  });

  it('fills one template row after row, each case its own objects, placeholders side by side included', () => {
    const template = compileTemplate({ id: '{{a}}{{b}}-{{ a }}', fixed: { deep: ['k'] }, n: 7 });
    const first = template.fill({ a: 'x', b: 2 }).value as { id: string; fixed: { deep: string[] } };
    const second = template.fill({ a: 'y', b: null }).value as { id: string; fixed: { deep: string[] } };
    expect(first).toEqual({ id: 'x2-x', fixed: { deep: ['k'] }, n: 7 });
    expect(second.id).toBe('ynull-y');
    first.fixed.deep.push('changed');
    expect(second.fixed.deep).toEqual(['k']);
    expect(template.columns).toEqual(['a', 'b']);
  });

  it('names what the row lacks instead of filling', () => {
    expect(fillTemplate({ id: '{{id}}-{{n}}', p: ['{{gone}}'] }, row)).toEqual({ missing: ['id', 'gone'] });
    expect(placeholdersOf({ a: ['x {{b}} {{ c }}'] })).toEqual([
      { name: 'b', pointer: '/a/0' },
      { name: 'c', pointer: '/a/0' },
    ]);
  });
});

/**
 * Every row of a text and the problems met, read the way the loader reads them: whole, as
 * validation reads a table. Read again in pieces of a few bytes, as a run reads one from
 * disk (rows, line breaks, characters and the byte-order mark split between pieces), it
 * must give the same.
 */
function readAll(format: TableFormat, text: string, maxRows: number) {
  const read = (pieces: Buffer[]) => {
    const problems: Diagnostic[] = [];
    const rows = format.rows(pieces, 't', maxRows, problems);
    return { columns: rows.columns, rows: [...rows], problems };
  };
  const bytes = Buffer.from(text, 'utf8');
  const whole = read([bytes]);
  for (const size of [1, 2, 3, 5, 64]) {
    const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
      bytes.subarray(i * size, (i + 1) * size),
    );
    expect(read(pieces), `read in pieces of ${size} bytes`).toEqual(whole);
  }
  return whole;
}

describe('table formats', () => {
  it('csv: lines of rows across quoted line breaks (CRLF, LF, lone CR) and blank lines', () => {
    const text = '\uFEFFid,text\r\na,"one\r\ntwo"\r\n\r\nb,"x\ny\rz"\r\nc,"q ""r"", s"\r\n';
    const read = readAll(csv, text, 10);
    expect(read.problems).toEqual([]);
    expect(read.columns).toEqual(['id', 'text']);
    expect(read.rows.map((r) => [r.location.line, r.values])).toEqual([
      [2, { id: 'a', text: 'one\r\ntwo' }],
      [5, { id: 'b', text: 'x\ny\rz' }],
      [8, { id: 'c', text: 'q "r", s' }],
    ]);
  });

  it('csv and jsonl: characters of several bytes come back whole, however the bytes are split', () => {
    const text = 'Grüße, 世界 🎉';
    expect(readAll(csv, `id,text\r\n1,"${text}"\r\n2,é\r\n`, 10).rows.map((r) => r.values.text)).toEqual([
      text,
      'é',
    ]);
    expect(
      readAll(jsonl, `\uFEFF{"text": "${text}"}\r\n{"text": "é"}`, 10).rows.map((r) => r.values.text),
    ).toEqual([text, 'é']);
  });

  it.each([
    ['csv', csv, 'id\n1\n2\n3\n4\n5\n6\n7\n'],
    ['csv with a quote in the header', csv, 'i"d\n1\n2\n3\n4\n5\n'],
    ['csv with a lost row boundary', csv, 'id\n1\na"b\n2\n3\n4\n5\n6\n'],
    ['jsonl', jsonl, '{}\n{}\n{}\n{}\n{}\n{}\n'],
  ] as const)(
    '%s: a reading that stops early closes the pieces (a run reads them from an open file)',
    (_, format, text) => {
      let closed = false;
      let pulled = 0;
      const lines = text.split(/(?<=\n)/);
      function* pieces() {
        try {
          for (const line of lines) {
            pulled++;
            yield Buffer.from(line);
          }
        } finally {
          closed = true;
        }
      }
      const problems: Diagnostic[] = [];
      const rows = [...format.rows(pieces(), 't', 1, problems)];
      expect(rows.length).toBeLessThanOrEqual(1);
      expect(problems.length).toBeGreaterThan(0);
      // Stopped before the last piece: closed by the reading, not by running out.
      expect(pulled).toBeLessThan(lines.length);
      expect(closed).toBe(true);
    },
  );

  it('csv and jsonl: one row past the limit is reported at its line, and no more is read', () => {
    expect(readAll(csv, 'id\n1\n2\n3\n', 2)).toMatchObject({
      rows: [{ values: { id: '1' } }, { values: { id: '2' } }],
      problems: [{ line: 4, message: 'the table has more than 2 rows' }],
    });
    expect(readAll(jsonl, '{}\n{}\n\n{}\n', 2).problems).toMatchObject([
      { line: 4, message: 'the table has more than 2 rows' },
    ]);
  });

  it('jsonl: a byte-order mark and CRLF are fine; the column of a JSON error is given where V8 says it', () => {
    const read = readAll(jsonl, '\uFEFF{"a": 1}\r\n{"a": 2,}\r\n', 10);
    expect(read.rows.map((r) => r.values)).toEqual([{ a: 1 }]);
    expect(read.problems).toMatchObject([{ line: 2, column: 9 }]);
  });

  it('jsonl: a row nested past the depth limit is refused, not walked', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const read = readAll(jsonl, `{"a": ${deep}}\n`, 10);
    expect(read.problems).toMatchObject([{ line: 1, message: 'the row nests more than 64 levels deep' }]);
  });

  it.each([
    ['csv', csv, (n: number) => `${n},"row ${n}, with a comma\nand a line break"\r\n`, 'n,text\r\n'],
    ['jsonl', jsonl, (n: number) => `${JSON.stringify({ n, text: `row ${n}` })}\n`, ''],
  ] as const)(
    '%s: rows are made as they are asked for, a problem given as the reading passes it',
    (_name, format, line, head) => {
      // Far past one piece of the CSV parser's input; a malformed row half-way.
      const count = 20_000;
      const lines = Array.from({ length: count }, (_, i) => line(i + 1));
      lines[count / 2] = format === csv ? 'x\r\n' : '{x\n';
      const problems: Diagnostic[] = [];
      const read = format.rows([Buffer.from(head + lines.join(''), 'utf8')], 't', 100_000, problems);
      const it = read[Symbol.iterator]();
      expect(it.next().value?.values).toMatchObject({ n: format === csv ? '1' : 1 });
      expect(problems).toEqual([]);
      let seen = 1;
      for (let next = it.next(); !next.done; next = it.next()) {
        seen++;
        if (seen === count / 2) expect(problems).toEqual([]);
      }
      expect(seen).toBe(count - 1);
      expect(problems).toHaveLength(1);
    },
  );

  it('csv: the last row needs no line break; a quote left open at the end is found at the end', () => {
    expect(readAll(csv, 'id,text\na,"x, y"', 10).rows.map((r) => r.values)).toEqual([
      { id: 'a', text: 'x, y' },
    ]);
    const open = readAll(csv, 'id,text\na,x\nb,"open', 10);
    expect(open.rows.map((r) => r.values)).toEqual([{ id: 'a', text: 'x' }]);
    expect(open.problems).toMatchObject([
      { line: 3, message: 'a quoted field that starts in this row is never closed' },
    ]);
    expect(readAll(csv, '', 10)).toEqual({ columns: null, rows: [], problems: [] });
  });
});

describe('parseSuite with tables (pure: the texts are handed over)', () => {
  const suite = [
    'suite: s',
    'service: router',
    'model: openai/gpt-4o-mini',
    'system: Be brief.',
    'params: { max_tokens: 64, temperature: 0 }',
    'tables:',
    '  - path: t.jsonl',
    '    case:',
    '      id: "r-{{id}}"',
    '      prompt: "{{q}}"',
    '      repeat: "{{n}}"',
    '      system: "{{sys}}"',
    '      params: { temperature: "{{t}}" }',
    '',
  ].join('\n');

  it('makes one case a row, typed values kept, the case’s system and params over the suite’s', () => {
    const rows = '{"id": "a", "q": "hi", "n": 2, "sys": "Be terse.", "t": 0.5}\n';
    const parsed = parseSuite(suite, 'suites/s.yaml', { tables: new Map([['t.jsonl', { text: rows }]]) });
    expect(parsed.errors).toBeUndefined();
    expect(parsed.value?.tables).toEqual([
      {
        file: 'suites/t.jsonl',
        format: 'jsonl',
        rows: 1,
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        template: expect.stringMatching(/^[0-9a-f]{64}$/),
        // The template as written: a run's journal keeps it with the table's digest.
        case: expect.objectContaining({ id: expect.any(String) }),
      },
    ]);
    // The template's digest follows the template and the suite's system prompt, not the rows.
    const tables = new Map([['t.jsonl', { text: rows.replace('hi', 'hello') }]]);
    const template = (text: string) =>
      parseSuite(text, 'suites/s.yaml', { tables }).value?.tables?.[0]?.template;
    expect(template(suite)).toBe(parsed.value?.tables?.[0]?.template);
    expect(template(suite.replace('Be brief.', 'Be short.'))).not.toBe(parsed.value?.tables?.[0]?.template);
    expect(template(suite.replace('"{{q}}"', '"Q: {{q}}"'))).not.toBe(parsed.value?.tables?.[0]?.template);
    expect(parsed.value?.cases).toEqual([
      {
        id: 'r-a',
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'hi' },
        ],
        expect: [],
        repeat: 2,
        params: { max_tokens: 64, temperature: 0.5 },
        location: { file: 'suites/t.jsonl', line: 1, column: 1 },
      },
    ]);
  });

  it('lists the first 20 rows with problems, then counts the rest', () => {
    const rows = Array.from({ length: 25 }, (_, i) => `{"id": "${i}", "q": "x", "n": 0, "sys": "", "t": 9}`);
    const parsed = parseSuite(suite, 'suites/s.yaml', {
      tables: new Map([['t.jsonl', { text: rows.join('\n') }]]),
    });
    const errors = parsed.errors ?? [];
    expect(new Set(errors.map((e) => e.line)).size).toBe(21);
    expect(errors.at(-1)).toMatchObject({
      line: 21,
      message: 'and 5 more rows of this table with problems, from this one on',
    });
  });

  it('counts malformed rows past the first 20 too (a file that is no table at all)', () => {
    const text = Array.from({ length: 30 }, (_, i) => `not json ${i}`).join('\n');
    const errors =
      parseSuite(suite, 'suites/s.yaml', { tables: new Map([['t.jsonl', { text }]]) }).errors ?? [];
    expect(errors).toHaveLength(21);
    expect(errors.at(-1)).toMatchObject({
      line: 21,
      message: 'and 10 more rows of this table with problems, from this one on',
    });
  });

  it('a table it was not given is reported where the suite names it', () => {
    expect(parseSuite(suite, 'suites/s.yaml').errors).toMatchObject([
      { file: 'suites/s.yaml', line: 7, column: 11, message: "table 't.jsonl' was not read" },
    ]);
  });
});
