/**
 * Case tables with one problem each, and what validation says of it: shared by the CLI
 * test (validate and run) and the loader's test (cases kept or not), which must say the same.
 */

/** One template over one table, for the error cases. */
export function oneTable(path: string, template: string): string {
  return `suite: broken\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: written\n    prompt: hi\ntables:\n  - path: ${path}\n    case:\n${template}`;
}

/** A template of an id and a prompt from the columns `id` and `text`. */
export const SAY = '      id: "say-{{id}}"\n      prompt: "Say exactly: {{text}}"\n';

export interface BrokenTable {
  name: string;
  files: Record<string, string>;
  suite: string;
  expected: string[];
}

export const BROKEN_TABLES: BrokenTable[] = [
  {
    name: 'a malformed JSONL row',
    files: { 'data/t.jsonl': '{"id": "a", "text": "x"}\n{"id": "b", "text": }\n[1, 2]\n' },
    suite: oneTable('../data/t.jsonl', SAY),
    expected: [
      "data/t.jsonl:2:1: the row is not valid JSON: Unexpected token '}'",
      'data/t.jsonl:3:1: a row must be a JSON object, got a list',
    ],
  },
  {
    name: 'a CSV row with too few fields, and a stray quote',
    files: { 'data/t.csv': 'id,text\na,x\nb\nc,say "hi"\n' },
    suite: oneTable('../data/t.csv', SAY),
    expected: [
      'data/t.csv:3:1: the row has 1 fields, the header 2',
      'data/t.csv:4:1: a quote in the middle of a field',
    ],
  },
  {
    name: 'a CSV quote never closed',
    files: { 'data/t.csv': 'id,text\r\na,x\r\nb,"open\r\nc,y\r\n' },
    suite: oneTable('../data/t.csv', SAY),
    expected: ['data/t.csv:3:1: a quoted field that starts in this row is never closed'],
  },
  {
    name: 'a placeholder naming no CSV column',
    files: { 'data/t.csv': 'id,txt\na,x\n' },
    suite: oneTable('../data/t.csv', SAY),
    expected: [
      'suites/t.yaml:11:15: placeholder {{text}} names no column of data/t.csv',
      '  → did you mean {{txt}}?',
    ],
  },
  {
    name: 'a JSONL row without a placeholder’s key',
    files: { 'data/t.jsonl': '{"id": "a", "text": "x"}\n{"id": "b", "txt": "y"}\n' },
    suite: oneTable('../data/t.jsonl', SAY),
    expected: [
      "data/t.jsonl:2:1: the row has no 'text' for the placeholder {{text}} at suites/t.yaml:11:15",
      '  → did you mean {{txt}}?',
    ],
  },
  {
    name: 'duplicate generated ids, naming both rows',
    files: {
      'data/t.jsonl': '{"id": "a", "text": "x"}\n\n{"id": "b", "text": "y"}\n{"id": "A", "text": "z"}\n',
    },
    suite: oneTable('../data/t.jsonl', SAY),
    expected: [
      "data/t.jsonl:4:1: duplicate case id 'say-A' (differs only in letter case from 'say-a'), first used on line 1",
    ],
  },
  {
    name: 'a generated id that is a written one',
    files: { 'data/t.csv': 'id,text\r\n"multi\r\nline",x\r\nwritten,y\r\n' },
    suite: oneTable('../data/t.csv', '      id: "{{id}}"\n      prompt: "{{text}}"\n'),
    expected: [
      "data/t.csv:2:1: case 'multi line' from this row: 'id' contains characters other than",
      "data/t.csv:4:1: duplicate case id 'written', first used at suites/t.yaml:5",
    ],
  },
  {
    name: 'an empty JSONL table',
    files: { 'data/t.jsonl': '\n\n' },
    suite: oneTable('../data/t.jsonl', SAY),
    expected: ['data/t.jsonl:1:1: the table has no rows'],
  },
  {
    name: 'a CSV table with a header only',
    files: { 'data/t.csv': 'id,text\r\n' },
    suite: oneTable('../data/t.csv', SAY),
    expected: ['data/t.csv:1:1: the table has a header row but no rows'],
  },
  {
    name: 'a generated case the case schema refuses',
    files: { 'data/t.jsonl': '{"id": "a", "text": "x", "checks": [{"contain": "x"}]}\n' },
    suite: oneTable('../data/t.jsonl', `${SAY}      expect: "{{checks}}"\n`),
    expected: ["data/t.jsonl:1:1: case 'say-a' from this row: unknown key 'contain' in expect[0]"],
  },
  {
    name: 'a table whose format its name does not tell',
    files: { 'data/t.txt': 'id,text\na,x\n' },
    suite: oneTable('../data/t.txt', SAY),
    expected: ["suites/t.yaml:8:11: cannot tell the format of table '../data/t.txt' from its name"],
  },
  {
    name: 'a table that is not there',
    files: {},
    suite: oneTable('../data/gone.jsonl', SAY),
    expected: ['data/gone.jsonl: no such file or folder', '(the table is named at suites/t.yaml:8)'],
  },
];
