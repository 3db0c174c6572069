import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { parseSuite } from '../../src/suite/parse.js';
import { fastRead } from '../../src/yaml/fast-read.js';
import { parseYamlMapping } from '../../src/yaml/parse-mapping.js';
import { REPO } from '../helpers/cli.js';

// The fast YAML path (js-yaml's `load`, positions of the suite and its cases from the raw lines) must
// give exactly what the full path (`yaml`) gives, positions included, and must decline whatever it
// does not handle itself.
// The loader fuzz test compares the two on thousands of hostile inputs as well.

function yamlFiles(dir: string): { name: string; text: string }[] {
  return readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((file) => ({ name: relative(REPO, file), text: readFileSync(file, 'utf8') }));
}

const SHIPPED_SUITES = [...yamlFiles('suites'), ...yamlFiles('test/fixtures/suites/valid')];

describe('fast YAML path: same suites as the full path', () => {
  it.each(SHIPPED_SUITES.map((f) => [f.name, f.text]))('%s', (name, text) => {
    const auto = parseSuite(text, name);
    expect(auto).toEqual(parseSuite(text, name, { yamlEngine: 'full' }));
  });

  it('takes the shipped and demo suites itself (it does not just hand everything to the full path)', () => {
    for (const { name, text } of [...yamlFiles('suites'), { name: 'config', text: readConfig() }]) {
      expect(fastRead(text), name).not.toBeNull();
    }
  });

  it('keeps positions with quotes, flow mappings, comments, block prompts and CRLF or CR line breaks', () => {
    const lines = [
      '# a comment first',
      'suite: "quoted-suite"   # trailing comment',
      "service: 'router'",
      'model: openai/gpt-4o-mini',
      'system: |',
      '  Be brief.',
      'cases:',
      '  - {id: flow-case, prompt: "Say hi", expect: [{contains: hi}]}',
      '  - "id": quoted-key',
      '    prompt: >',
      '      folded',
      '      prompt',
      '    expect:',
      '      - regex: "^h"',
      '      - not_contains: bye',
      '  -',
      '    id: item-on-next-line',
      '    messages:',
      '      - role: user',
      '        content: "multi',
      '          line"',
    ];
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = `${lines.join(eol)}${eol}`;
      expect(fastRead(text.replace(/\r(?!\n)/g, '\n')), JSON.stringify(eol)).not.toBeNull();
      const auto = parseSuite(text, 'suites/styles.yaml');
      expect(auto.errors).toBeUndefined();
      expect(auto).toEqual(parseSuite(text, 'suites/styles.yaml', { yamlEngine: 'full' }));
      expect(auto.value?.location).toEqual({ file: 'suites/styles.yaml', line: 2, column: 8 });
      expect(auto.value?.cases.map((c) => `${c.location.line}:${c.location.column}`)).toEqual([
        '8:5',
        '9:5',
        '17:5',
      ]);
    }
  });

  it('types plain scalars as the full path does, and keeps empty values and values on the next line', () => {
    const text = [
      'suite: s',
      'service: router',
      'model: openai/gpt-4o-mini',
      'params:',
      '  temperature: 0.5',
      '  max_tokens: 0x40',
      '  top_p: 1.',
      'cases:',
      '  - id: a',
      '    prompt:',
      '      a prompt on the next line',
      '    expect:',
      '      - contains: yes',
      '      - contains: "007"',
      '  - {id: b, prompt: hi}',
      '',
    ].join('\n');
    expect(fastRead(text)).not.toBeNull();
    const auto = parseSuite(text, 'suites/types.yaml');
    expect(auto).toEqual(parseSuite(text, 'suites/types.yaml', { yamlEngine: 'full' }));
    expect(auto.value?.params).toEqual({ temperature: 0.5, max_tokens: 64, top_p: 1 });
    const config = 'services:\n  router:\n    kind: router\n    base_url:\n    api_key_env: K\n';
    expect(fastRead(config)).toEqual({
      services: { router: { kind: 'router', base_url: null, api_key_env: 'K' } },
    });
    expect(parseConfig(config, 'c.yaml', {})).toEqual(parseConfig(config, 'c.yaml', {}, 'full'));
  });

  it('reads a mapping whose one key has an empty value as the full path does', () => {
    const text = 'suite: s\ndrift:\n  answer:\nparams:\n  x: 1\n';
    expect(fastRead(text)).toEqual({ suite: 's', drift: { answer: null }, params: { x: 1 } });
    expect(fastRead(text)).toEqual(parseYamlMapping(text, 'a.yaml', 'suite', 'x').value?.data);
  });

  it('places a suite and cases written on the line after their key or dash, with any line break', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = [
        'suite:',
        '  on-the-next-line',
        'service: router',
        'model: openai/gpt-4o-mini',
        'cases:',
        '  -',
        '    id: a',
        '    prompt:',
        '      hi',
        '',
      ].join(eol);
      const auto = parseSuite(text, 'suites/next.yaml');
      expect(auto.value?.location).toEqual({ file: 'suites/next.yaml', line: 2, column: 3 });
      expect(auto.value?.cases[0]?.location).toEqual({ file: 'suites/next.yaml', line: 7, column: 5 });
      expect(auto).toEqual(parseSuite(text, 'suites/next.yaml', { yamlEngine: 'full' }));
    }
  });

  it('takes the position of a suite name in a block scalar from the full path', () => {
    const text =
      'suite: >-\n  folded-name\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: a\n    prompt: x\n';
    const auto = parseSuite(text, 'suites/folded.yaml');
    expect(auto.value?.suite).toBe('folded-name');
    expect(auto.value?.location).toEqual({ file: 'suites/folded.yaml', line: 1, column: 8 });
    expect(auto).toEqual(parseSuite(text, 'suites/folded.yaml', { yamlEngine: 'full' }));
  });

  it('takes case positions from the full path when the cases are a flow list', () => {
    const text =
      'suite: s\nservice: router\nmodel: openai/gpt-4o-mini\ncases: [{id: a, prompt: x},\n  {id: b, prompt: y}]\n';
    const auto = parseSuite(text, 'suites/flow.yaml');
    expect(auto.value?.cases.map((c) => `${c.location.line}:${c.location.column}`)).toEqual(['4:9', '5:3']);
    expect(auto).toEqual(parseSuite(text, 'suites/flow.yaml', { yamlEngine: 'full' }));
  });

  it('gives the same diagnostics as the full path for a suite with problems', () => {
    const text = [
      'suite: s',
      'service: router',
      'model: ~openai/gpt-latest',
      'cases:',
      '  - id: a',
      '    prompt: x',
      '  - id: A',
      '    prompt: y',
      '    expect: [{regex: "("}]',
      '',
    ].join('\n');
    const auto = parseSuite(text, 'suites/bad.yaml');
    expect(auto.errors?.length).toBeGreaterThanOrEqual(3);
    expect(auto).toEqual(parseSuite(text, 'suites/bad.yaml', { yamlEngine: 'full' }));
  });
});

describe('fast YAML path: declines what only the full path handles', () => {
  it.each([
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a local tag', 'a: !custom 1\n'],
    ['a merge key', 'base: {x: 1}\nm:\n  <<: {x: 2}\n'],
    ['a %YAML directive', '%YAML 1.1\n---\na: yes\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['a complex key', '? [a, b]\n: c\n'],
    ['a flow-sequence key', '[a]: b\n'],
    ['a __proto__ key', '__proto__: {polluted: true}\n'],
    ['a byte-order mark', '\uFEFFa: 1\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['a syntax error', 'a: [1, 2\n'],
    ['a root that is a list', '- a\n- b\n'],
    ['nesting deeper than 64 levels', `${'['.repeat(70)}${']'.repeat(70)}\n`],
    ['a null key', 'null: a\n1: b\n'],
    ['an alias used as a value', 'a: x\nb: *x\n'],
  ])('%s', (_what, text) => {
    expect(fastRead(text)).toBeNull();
    // …and the answer is still the full path's.
    expect(parseSuite(text, 'suites/x.yaml')).toEqual(
      parseSuite(text, 'suites/x.yaml', { yamlEngine: 'full' }),
    );
    expect(parseConfig(text, 'c.yaml', {})).toEqual(parseConfig(text, 'c.yaml', {}, 'full'));
  });
});

describe('fast YAML path: plain scalars typed as the full path types them (YAML 1.2 core)', () => {
  it.each([
    'a: 1_000',
    'a: 0b101',
    'a: 1:20',
    'a: 0o17',
    'a: 0x1F',
    'a: -0',
    'a: 1e3',
    'a: .inf',
    'a: -.Inf',
    'a: .NaN',
    'a: ~',
    'a: Null',
    'a: TRUE',
    'a: yes',
    'a: 2026-11-22',
    'a: 12345678901234567890',
    'a: [1, +2, -3.5, .5, "4"]',
    'a: +.5',
    'a: [b: c]',
    'a:\n  -\n  - b',
  ])('%s', (line) => {
    const text = `${line}\n`;
    expect(parseConfig(text, 'c.yaml', {})).toEqual(parseConfig(text, 'c.yaml', {}, 'full'));
    const fast = fastRead(text);
    if (fast) expect(fast).toEqual(parseYamlMapping(text, 'c.yaml', 'config', 'x').value?.data);
  });
});

function readConfig(): string {
  return readFileSync(join(REPO, 'driftcheck.config.yaml'), 'utf8');
}
