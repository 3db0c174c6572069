import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { loadReport } from '../../src/stored/report/read.js';
import type { Report } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import { makeProject, REPO, runDirFrom, type CliResult } from '../helpers/cli.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

// Extends a copy of driftcheck the way README.md's "Adding a …" sections say — each section's
// code written to the file it names, its registry line added, what else it asks done — one
// section at a time, counting the files each changed against its "Files:" list; then runs the
// typecheck, lint, build and schema check in the copy, the tests that hold the registries to
// README and to the other tests, and the copy's binary against a loopback service: what a
// contributor does. A snippet, a registry or a file list that goes stale fails it.
const exec = promisify(execFile);
const README = await readFile(join(REPO, 'README.md'), 'utf8');

/** What a README section says to do. */
interface Section {
  title: string;
  /** The file to write and its code. */
  path: string;
  code: string;
  /** The registry (`export const NAME = {` in `file`) and the line to add to it, with the new module's import or not. */
  registry: { name: string; file: string; line: string; withImport: boolean };
  /** The files the section says change: hand-written and regenerated. */
  files: string[];
  text: string;
}

/** The sections README has under "Adding a …", in order. */
const TITLES = [...README.matchAll(/^### (Adding an? .+)$/gm)].map((m) => m[1]!);

/** A README section, as "Developing" says a section reads; fails naming what it lacks. */
function section(title: string): Section {
  const text = README.split(`### ${title}\n`)[1]!.split('\n### ')[0]!.split('\n## ')[0]!;
  const write = /Write\s+`([^`]+)`:\s*```ts\n([\s\S]*?)```/.exec(text);
  const register = /register it in\s+`(\w+)`\s+\(`([^`]+)`\):\s+`([^`]+)`(\s+\(with\s+its\s+import\))?/.exec(
    text,
  );
  const files = /\nFiles:([\s\S]*?)(?:\n\n|$)/.exec(text);
  expect(write, `${title}: "Write \`FILE\`:" and its code`).not.toBeNull();
  expect(register, `${title}: "register it in \`NAME\` (\`FILE\`): \`LINE\`"`).not.toBeNull();
  expect(files, `${title}: "Files: …"`).not.toBeNull();
  return {
    title,
    path: write![1]!,
    code: write![2]!,
    registry: { name: register![1]!, file: register![2]!, line: register![3]!, withImport: !!register![4] },
    files: [...files![1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((f) => !f.startsWith('npm ')),
    text,
  };
}

/** Adds `line` (one or more lines) at the end of the object literal `const NAME… = {…}` of a file. */
function registered(text: string, name: string, line: string): string {
  const head = new RegExp(`^(?:export )?const ${name}\\b[^=]*= \\{`, 'm').exec(text);
  expect(head, `the file has const ${name} = {…}`).not.toBeNull();
  const start = head!.index + head![0].length;
  let depth = 1;
  let close = start;
  for (; close < text.length; close++) {
    if (text[close] === '{') depth++;
    else if (text[close] === '}' && --depth === 0) break;
  }
  const body = text.slice(start, close);
  if (body.includes('\n')) {
    const lineStart = text.lastIndexOf('\n', close) + 1;
    const indented = line.replace(/^(?=.)/gm, '  ');
    return `${text.slice(0, lineStart)}${indented}${indented.endsWith('\n') ? '' : '\n'}${text.slice(lineStart)}`;
  }
  // A one-line literal: `{ a, b }` → `{ a, b, c }`.
  const end = start + body.trimEnd().length;
  return `${text.slice(0, end)}, ${line.replace(/,$/, '')}${text.slice(end)}`;
}

/** `text` with `line` after its last top-level import. */
function imported(text: string, line: string): string {
  const ends = [...text.matchAll(/^(?:import .*|\} from .*);$/gm)];
  const at = ends.length > 0 ? ends.at(-1)!.index! + ends.at(-1)![0].length + 1 : 0;
  return `${text.slice(0, at)}${line}\n${text.slice(at)}`;
}

let root: string;
let copy: string;
/** Each section's files as the copy's git saw them change. */
const changed = new Map<string, string[]>();
/** The sections as README has them. */
const sections = new Map<string, Section>();
/** Typecheck, lint, schema check and the copy's own tests, each as its exit code and output. */
const checks = new Map<string, { code: number; output: string }>();

const git = (...args: string[]) =>
  exec('git', ['-c', 'user.email=extend@test', '-c', 'user.name=extend', ...args], { cwd: copy });
const inCopy = async (command: string, args: string[]) =>
  exec(command, args, {
    cwd: copy,
    maxBuffer: 64 * 1024 * 1024,
    // Not the vitest worker's own variables: the copy's tests run as they would alone.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmpdir(), NO_COLOR: '1' },
  }).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      output: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );

/** Does what a section says, in the copy. */
async function apply(s: Section): Promise<void> {
  await mkdir(dirname(join(copy, s.path)), { recursive: true });
  await writeFile(join(copy, s.path), s.code);
  const registry = join(copy, s.registry.file);
  let text = registered(await readFile(registry, 'utf8'), s.registry.name, s.registry.line);
  if (s.registry.withImport) {
    const exported = /^export (?:const|function) (\w+)/m.exec(s.code)![1]!;
    const from = relative(dirname(s.registry.file), s.path).replace(/\.ts$/, '.js');
    text = imported(text, `import { ${exported} } from '${from.startsWith('.') ? from : `./${from}`}';`);
  }
  await writeFile(registry, text);
  // A row it gives another table (a test's), as its code block after "a row in `NAME` (`FILE`".
  const row = /a row in\s+`(\w+)`\s+\(`([^`]+)`[\s\S]*?```ts\n([\s\S]*?)```/.exec(s.text);
  if (row) {
    const file = join(copy, row[2]!);
    await writeFile(file, registered(await readFile(file, 'utf8'), row[1]!, row[3]!));
  }
  const readme = join(copy, 'README.md');
  // A service kind is named where README lists the kinds.
  if (/name the kind where this README lists them/.test(s.text)) {
    const kind = /^(\w+)/.exec(s.registry.line)![1]!;
    const { serviceKinds } = await import('../../src/adapters/index.js');
    const list = `\`kind\` (${serviceKinds().join(' | ')})`;
    const text = await readFile(readme, 'utf8');
    expect(text, 'README lists the service kinds').toContain(list);
    await writeFile(readme, text.replace(list, `${list.slice(0, -1)} | ${kind})`));
  }
  // A drift kind the section adds goes into README's list of drift kinds.
  const kind = /\*\*Drift kinds\*\* list[\s\S]*?```md\n([\s\S]*?)\n```/.exec(s.text);
  if (kind) {
    const text = await readFile(readme, 'utf8');
    const list = /\*\*Drift kinds\*\*:[\s\S]*?(?=\.\n\n)/.exec(text)!;
    const at = list.index + list[0].length;
    await writeFile(readme, `${text.slice(0, at)}, ${kind[1]}${text.slice(at)}`);
  }
  // A reporter's name goes into the lists of reporters in action.yml and README.
  if (/lists of reporters in `action\.yml`/.test(s.text)) {
    const name = /^(\w+):/.exec(s.registry.line)![1]!;
    const { REPORTER_NAMES } = await import('../../src/report/outputs.js');
    const names = REPORTER_NAMES.join(',');
    for (const file of [join(copy, 'action.yml'), readme]) {
      const text = await readFile(file, 'utf8');
      expect(text, `${file} lists the reporters`).toContain(names);
      await writeFile(file, text.replaceAll(names, `${names},${name}`));
    }
  }
}

let service: LoopbackService;
let tier = 'default';
let project: Awaited<ReturnType<typeof makeProject>>;

const run = (args: string[]): Promise<CliResult> =>
  exec(process.execPath, [join(copy, 'bin/driftcheck.js'), ...args], {
    cwd: project.dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', DIRECT_API_KEY: 'sk-test0123456789abcdef' },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: CliResult) => e,
  );

// A throwaway check beyond the README's: it reads the request the case sent and the baseline,
// so the context a check gets is proved through the binary.
const ECHO_CHECK = `import type { CheckDefinition } from '../registry.js';

export const knowsRequest: CheckDefinition<string> = {
  schema: { type: 'string', minLength: 1 },
  parse: (value) => String(value),
  usesBaseline: () => true,
  run: (value, { request, baseline }) => {
    const asked = request.messages.at(-1)?.content ?? '';
    const pass = asked.includes(value) && request.model === 'acme/model-1';
    return { type: 'knows_request', pass, message: \`asked \${JSON.stringify(asked)}; baseline \${baseline ? baseline.status : 'none'}\` };
  },
};
`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'driftcheck-extend-'));
  copy = join(root, 'driftcheck');
  // The repository as a contributor has it (tracked and new files; not dist/, reports/, node_modules/).
  const { stdout } = await exec('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: REPO,
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of stdout.split('\0').filter(Boolean)) {
    await mkdir(dirname(join(copy, file)), { recursive: true });
    await cp(join(REPO, file), join(copy, file)).catch((e: { code?: string }) => {
      if (e.code !== 'ENOENT') throw e; // deleted in the work tree, not yet in git
    });
  }
  await symlink(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'base');

  // A check of this test's own for the binary below, in before the first section's build
  // (which regenerates the schemas anyway) and left out of the count.
  await writeFile(join(copy, 'src/checks/kinds/knows-request.ts'), ECHO_CHECK);
  const checksFile = join(copy, 'src/checks/registry.ts');
  const withEcho = registered(await readFile(checksFile, 'utf8'), 'CHECKS', 'knows_request: knowsRequest,');
  await writeFile(checksFile, imported(withEcho, "import { knowsRequest } from './kinds/knows-request.js';"));
  await git('add', '-A');
  await git('commit', '-q', '-m', 'knows_request');
  const { stdout: own } = await git('rev-parse', 'HEAD');

  // Each section as README says it, one build each (npm run build, as README says), its changes counted.
  for (const title of TITLES) {
    const s = section(title);
    sections.set(title, s);
    await apply(s);
    const built = await inCopy('npm', ['run', 'build', '--silent']);
    expect(built.code, `${title}: npm run build\n${built.output}`).toBe(0);
    const status = (await git('status', '--porcelain', '-uall')).stdout;
    changed.set(
      title,
      status
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(3)),
    );
    await git('add', '-A');
    await git('commit', '-q', '-m', title);
  }

  // What `npm run check` runs, in the copy: the typecheck (src, test, bench), lint on what the
  // sections changed (ESLint, Prettier), the schema check, and the tests that hold the
  // registries to README and to the other tests.
  const files = (await git('diff', '--name-only', own.trim(), 'HEAD')).stdout.split('\n').filter(Boolean);
  checks.set('typecheck', await inCopy('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']));
  checks.set('eslint', await inCopy('npx', ['eslint', ...files.filter((f) => /\.(ts|m?js)$/.test(f))]));
  checks.set('prettier', await inCopy('npx', ['prettier', '--check', '--ignore-unknown', ...files]));
  checks.set('schemas', await inCopy(process.execPath, ['scripts/check-schemas.mjs']));
  checks.set(
    'tests',
    await inCopy('npx', [
      'vitest',
      'run',
      'test/record/drift-kinds.test.ts',
      'test/record/schema.test.ts',
      'test/report/reporter-names.cli.test.ts',
      'test/checks/registry.test.ts',
      'test/stored/report/case-line.test.ts',
      'test/service/normalize.test.ts',
      'test/golden/demo.cli.test.ts',
      'test/adapters/kind-names.test.ts',
      'test/adapters/questions.test.ts',
      'test/adapters/readme-kind.test.ts',
      'test/config/schema.test.ts',
    ]),
  );

  service = await startLoopbackService((_req, res) => {
    const body = JSON.parse(completion('Refunds are possible within 30 days.', 'acme/model-1'));
    sendJson(res, 200, JSON.stringify({ ...body, service_tier: tier }));
  });
  project = await makeProject({
    // The kind README's "Adding a service kind" added.
    'driftcheck.config.yaml': `services:\n  mine: { kind: local, base_url: ${service.url}/v1, api_key_env: DIRECT_API_KEY, retries: 0 }\n`,
    'suites/refunds.yaml': [
      'suite: refunds',
      'service: mine',
      'model: acme/model-1',
      'cases:',
      '  - id: window',
      '    prompt: How long is the refund window?',
      '    expect:',
      '      - starts_with: Refunds',
      '      - knows_request: refund window',
      'tables:',
      '  - path: rows.tsv',
      '    case:',
      '      id: "row-{{n}}"',
      '      prompt: "Refunds for order {{order}}?"',
      '      expect:',
      '        - starts_with: "{{starts}}"',
      '',
    ].join('\n'),
    'suites/rows.tsv': 'n\torder\tstarts\n1\tA-1\tRefunds\n\n2\tA-2\tRefunds are\n',
  });
}, 600_000);

afterAll(async () => {
  await service?.close();
  await project?.cleanup();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('README’s "Adding a …" sections, applied to a copy as written', () => {
  it('has the sections it promises, each in the form Developing describes', () => {
    expect(TITLES).toEqual(
      expect.arrayContaining([
        'Adding a check type',
        'Adding a recorded field',
        'Adding a case source (table format)',
        'Adding a reporter',
        'Adding a service kind',
      ]),
    );
    expect([...sections.keys()]).toEqual(TITLES);
  });

  it('each changed exactly the files its "Files:" list names', () => {
    for (const [title, s] of sections) expect(changed.get(title)!.sort(), title).toEqual([...s.files].sort());
    // The files per extension, as measured: what a contributor writes and what the build regenerates.
    for (const [title, files] of changed)
      console.log(`${title}: ${files.length} files (${files.join(', ')})`);
  });

  it.each(['typecheck', 'eslint', 'prettier', 'schemas', 'tests'])(
    '%s passes in the extended copy',
    (name) => {
      const result = checks.get(name)!;
      expect(result.code, result.output.slice(-4000)).toBe(0);
    },
  );
});

describe('the extended copy’s binary', () => {
  it('validate accepts a config naming the new service kind and a suite using the new check and table format', async () => {
    const validate = await run(['validate']);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
  });

  it('runs them: the check, the table’s rows, the field on samples, cases and the baseline, its drift, its row in report.html, the new reporter’s file; the report fits the shipped schema', async () => {
    const first = await run(['run', '--update-baselines']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/refunds.json'), 'utf8'));
    expect(baseline.cases.window).toMatchObject({ status: 'pass', service_tier: 'default' });
    expect(Object.keys(baseline.cases).sort()).toEqual(['row-1', 'row-2', 'window']);

    // Overnight the service answers from another tier.
    tier = 'flex';
    const second = await run(['run']);
    const dir = runDirFrom(second, project.dir);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report & {
      cases: Record<string, unknown>[];
    };
    const entry = report.cases.find((c) => c.case === 'window')!;
    expect(entry.checks).toEqual([
      { type: 'starts_with', pass: true, message: 'starts with "Refunds"' },
      { type: 'knows_request', pass: true, message: 'asked "How long is the refund window?"; baseline pass' },
    ]);
    // The line leaves out the list its one value says; the copy's reader puts it back.
    expect(entry).toMatchObject({ service_tier: 'flex' });
    expect(entry).not.toHaveProperty('service_tiers');
    const copied = (await import(pathToFileURL(join(copy, 'dist/stored/report/read.js')).href)) as {
      loadReport: typeof loadReport;
    };
    const restored = (await copied.loadReport(dir)).cases.find((c) => c.case === 'window')!;
    expect(restored).toMatchObject({ service_tier: 'flex', service_tiers: ['flex'] });
    expect(entry.drift).toContainEqual(
      expect.objectContaining({
        kind: 'service_tier_changed',
        severity: 'warn',
        baseline: 'default',
        current: 'flex',
      }),
    );
    const journal = (await readFile(join(dir, 'results.jsonl'), 'utf8'))
      .split('\n')
      .filter((l) => l.includes('"key"'))
      .map((l) => JSON.parse(l) as SampleResult & { service_tier?: string });
    expect(journal.map((s) => s.service_tier)).toEqual(['flex', 'flex', 'flex']);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('"term":"service_tier","text":"flex","at":"served"');
    expect(await readFile(join(dir, 'report.tap'), 'utf8')).toBe(
      'TAP version 14\n1..3\nok 1 - refunds/window (pass)\nok 2 - refunds/row-1 (pass)\nok 3 - refunds/row-2 (pass)\n',
    );

    // The shipped schema of the extended copy, as its builds wrote it.
    const schema = JSON.parse(await readFile(join(copy, 'schemas/report.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: true, validateFormats: false }).compile(schema);
    expect(validate(report) ? [] : validate.errors).toEqual([]);
    expect(schema.$defs.check.properties.type.enum).toEqual(
      expect.arrayContaining(['starts_with', 'knows_request']),
    );
    expect(schema.$defs.drift.properties.kind.enum).toContain('service_tier_changed');
  });

  it('--reporter tap alone writes report.json and report.tap', async () => {
    const only = await run(['run', '--reporter', 'tap']);
    const dir = runDirFrom(only, project.dir);
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(dir)).filter((f) => f.startsWith('report.')).sort()).toEqual([
      'report.json',
      'report.tap',
    ]);
  });
});
