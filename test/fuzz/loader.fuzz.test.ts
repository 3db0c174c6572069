import fc from 'fast-check';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { InputError } from '../../src/util/errors.js';
import { ID_PATTERN } from '../../src/suite/ids.js';
import { loadSuites } from '../../src/suite/load.js';
import { parseSuite } from '../../src/suite/parse.js';
import { fastRead, scanSuiteLayout } from '../../src/yaml/fast-read.js';
import { normaliseBreaks, parseYamlMapping } from '../../src/yaml/parse-mapping.js';
import type { Config } from '../../src/config/types.js';
import type { Suite } from '../../src/suite/types.js';
import type { Diagnostic, Validated } from '../../src/util/errors.js';
import { REPO } from '../helpers/cli.js';
import { asYaml, configLike, mutated, readYamlTree, suiteLike } from './mutate.js';

// Fixed so a failure reproduces; FUZZ_SEED=<n> explores other inputs.
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const ENV = { BASE: 'http://127.0.0.1:8787/v1', K: 'x' };

const SUITE_SEEDS = [
  ...readYamlTree(join(REPO, 'test/fixtures/suites')),
  ...readYamlTree(join(REPO, 'test/fixtures/hostile/suites')),
];
const CONFIG_SEEDS = [
  ...readYamlTree(join(REPO, 'test/fixtures/config')),
  ...readYamlTree(join(REPO, 'test/fixtures/hostile/config')),
];

let inputsRun = 0;
let fastAccepted = 0;
afterAll(() => {
  console.log(`loader fuzz: ${inputsRun} inputs run, ${fastAccepted} taken by the fast path (seed ${SEED})`);
});

/** Plain checks, not expect(): they run thousands of times and must stay cheap. */
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

/** A diagnostic a user (and an editor) can act on: a file, a 1-based position, words. */
function checkUsable(d: Diagnostic, file: string): void {
  const where = `${JSON.stringify(d)}`;
  check(d.file === file, `file: ${where}`);
  check(Number.isInteger(d.line) && d.line >= 1, `line: ${where}`);
  check(Number.isInteger(d.column) && d.column >= 1, `column: ${where}`);
  check(typeof d.message === 'string' && d.message.trim() !== '', `message: ${where}`);
  check(d.hint === undefined || d.hint.trim() !== '', `hint: ${where}`);
}

/** Either a value or a non-empty list of usable diagnostics — never both, never neither. */
function checkValidated<T>(result: Validated<T>, file: string): T | undefined {
  if (result.errors === undefined) {
    check(result.value !== undefined, 'neither value nor errors');
    return result.value;
  }
  check(result.value === undefined, 'both value and errors');
  check(result.errors.length > 0, 'an empty error list');
  for (const d of result.errors) checkUsable(d, file);
  return undefined;
}

/** What a suite that passed must guarantee downstream (file names, requests). */
function checkSoundSuite(suite: Suite): void {
  check(ID_PATTERN.test(suite.suite), `suite name ${suite.suite}`);
  check(suite.cases.length > 0, 'no cases');
  const ids = suite.cases.map((c) => c.id.toLowerCase());
  check(new Set(ids).size === ids.length, `duplicate ids ${ids.join()}`);
  for (const c of suite.cases) {
    check(ID_PATTERN.test(c.id), `case id ${c.id}`);
    check(c.messages.length > 0, `no messages in ${c.id}`);
    for (const m of c.messages) {
      check(['system', 'user', 'assistant'].includes(m.role), `role ${m.role}`);
      check(typeof m.content === 'string', `content ${String(m.content)}`);
    }
  }
  JSON.stringify(suite); // throws on a BigInt or a cycle
}

function checkSoundConfig(config: Config): void {
  for (const service of Object.values(config.services)) {
    check(['router', 'direct'].includes(service.kind), `kind ${service.kind}`);
    check(Number.isFinite(service.timeout_s) && service.timeout_s > 0, `timeout_s ${service.timeout_s}`);
    check(
      Number.isInteger(service.concurrency) && service.concurrency >= 1,
      `concurrency ${service.concurrency}`,
    );
    if (service.base_url !== '') new URL(service.base_url); // throws when it is no URL
  }
}

/** Feeds one text to both loaders: both must answer with data, never throw. */
function loadBoth(text: string): void {
  inputsRun += 1;
  const parsedSuite = parseSuite(text, 'suites/fuzz.yaml');
  const suite = checkValidated(parsedSuite, 'suites/fuzz.yaml');
  if (suite) checkSoundSuite(suite);
  const parsedConfig = parseConfig(text, 'driftcheck.config.yaml', ENV);
  const config = checkValidated(parsedConfig, 'driftcheck.config.yaml');
  if (config) checkSoundConfig(config);
  // The fast YAML path must never change an answer: same value, same diagnostics.
  sameAnswer(parsedSuite, parseSuite(text, 'suites/fuzz.yaml', { yamlEngine: 'full' }), 'suite');
  sameAnswer(parsedConfig, parseConfig(text, 'driftcheck.config.yaml', ENV, 'full'), 'config');
  sameYamlLayer(text);
}

/**
 * Where the fast reader takes a file, it must read the same data as the full path; where
 * the line scan places the suite and its cases (and accounts for every case), it must
 * place them where the full path does.
 */
function sameYamlLayer(text: string): void {
  const source = normaliseBreaks(text);
  const fast = fastRead(source);
  if (!fast) return;
  fastAccepted += 1;
  const full = parseYamlMapping(text, 'f.yaml', 'suite', 'keys');
  check(full.value !== undefined, `fast path took what the full path refuses: ${JSON.stringify(text)}`);
  check(isDeepStrictEqual(fast, full.value!.data), `data differs for ${JSON.stringify(text)}`);
  const layout = scanSuiteLayout(source);
  if (!layout || !Array.isArray(fast.cases) || layout.cases.length !== fast.cases.length) return;
  if (typeof fast.suite !== 'string') return;
  const want = (pointer: string) => JSON.stringify(full.value!.locate(pointer));
  const shown = JSON.stringify(text);
  check(
    JSON.stringify(layout.suite) === want('/suite') || !nameAt(source, layout.suite, fast.suite),
    `/suite in ${shown}`,
  );
  for (const key of ['service', 'model'] as const) {
    const at = layout[key];
    const name = fast[key];
    if (!at || typeof name !== 'string') continue;
    check(JSON.stringify(at) === want(`/${key}`) || !nameAt(source, at, name), `/${key} in ${shown}`);
  }
  layout.cases.forEach((at, i) => {
    check(
      JSON.stringify(at) === want(`/cases/${i}`),
      `/cases/${i}: ${JSON.stringify(at)} vs ${want(`/cases/${i}`)} in ${shown}`,
    );
  });
}

/** The name check the fast path makes before it trusts a scanned position (suite, service, model). */
function nameAt(source: string, at: { line: number; column: number }, name: string): boolean {
  const line = source.split('\n')[at.line - 1] ?? '';
  const text = line.slice(at.column - 1);
  return text.startsWith(name) || text.startsWith(`"${name}"`) || text.startsWith(`'${name}'`);
}

function sameAnswer<T>(auto: Validated<T>, full: Validated<T>, what: string): void {
  const shown = (v: Validated<T>) => JSON.stringify(v);
  check(isDeepStrictEqual(auto, full), `${what}: fast path ${shown(auto)}\nfull path ${shown(full)}`);
}

const SOURCES: [string, fc.Arbitrary<string>, number][] = [
  [
    'any string (every code unit, NUL and lone surrogates included)',
    fc.string({ unit: 'binary', maxLength: 300 }),
    700,
  ],
  ['any grapheme string', fc.string({ unit: 'grapheme', maxLength: 300 }), 400],
  ['JSON text (YAML is a superset)', fc.json({ maxDepth: 4 }), 400],
  ['any JS value serialized as YAML', fc.anything({ maxDepth: 4 }).map(asYaml), 500],
  ['suite-shaped data with wrong types', suiteLike, 900],
  ['config-shaped data with wrong types', configLike, 600],
  ['mutated suite fixtures', mutated(SUITE_SEEDS), 1400],
  ['mutated config fixtures', mutated(CONFIG_SEEDS), 700],
];

describe('loader fuzz: parseSuite and parseConfig only ever return typed results', () => {
  it.each(SOURCES)('%s', (_name, source, numRuns) => {
    fc.assert(fc.property(source, loadBoth), { seed: SEED, numRuns });
  });
});

describe('loader fuzz: loadSuites on files only ever throws InputError', () => {
  it('reads folders of mutated suites', async () => {
    const root = await mkdtemp(join(tmpdir(), 'driftcheck-fuzz-'));
    let round = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(mutated(SUITE_SEEDS), { minLength: 1, maxLength: 3 }), async (texts) => {
          inputsRun += texts.length;
          const dir = join(root, String((round += 1)));
          await mkdir(dir);
          await Promise.all(texts.map((text, i) => writeFile(join(dir, `s${i}.yaml`), text)));
          try {
            const suites = await loadSuites([dir], { cwd: root });
            suites.forEach(checkSoundSuite);
            check(new Set(suites.map((s) => s.suite.toLowerCase())).size === suites.length, 'same names');
          } catch (error) {
            if (!(error instanceof InputError)) throw error;
            check(error.diagnostics.length > 0, 'an InputError without diagnostics');
            for (const d of error.diagnostics) {
              check(d.file.startsWith(`${round}/`), `file ${d.file}`);
              checkUsable(d, d.file);
            }
          }
        }),
        { seed: SEED, numRuns: 150 },
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
