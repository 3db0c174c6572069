import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import { makeProject, REPO, runDirFrom, type CliResult } from '../helpers/cli.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

// Extends a copy of driftcheck the way README.md's "Adding a check type" and "Adding a
// recorded field" say — their code blocks written as the files they name, one registry line
// each — builds it once, and runs it against a loopback service: what a contributor does.
const exec = promisify(execFile);
const README = await readFile(join(REPO, 'README.md'), 'utf8');

/** The file a README section tells you to write, and its code block. */
function documented(section: string): { path: string; code: string } {
  const text = README.split(`### ${section}\n`)[1]!.split('\n### ')[0]!;
  const [, path, code] = /Write\s+`([^`]+)`:\s*```ts\n([\s\S]*?)```/.exec(text)!;
  return { path: path!, code: code! };
}

/** Adds `line` to the object literal `const NAME = {` of a registry file, and its import first. */
async function register(file: string, name: string, line: string, importLine: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const at = `export const ${name} = {\n`;
  expect(text, `${file} has ${at.trim()}`).toContain(at);
  await writeFile(file, `${importLine}\n${text.replace(at, `${at}  ${line}\n`)}`);
}

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

let root: string;
let copy: string;
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

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'driftcheck-extend-'));
  copy = join(root, 'driftcheck');
  for (const p of [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'src',
    'scripts',
    'schemas',
    'bin',
  ])
    await cp(join(REPO, p), join(copy, p), { recursive: true });
  await symlink(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');

  const check = documented('Adding a check type');
  await writeFile(join(copy, check.path), check.code);
  await writeFile(join(copy, 'src/checks/kinds/knows-request.ts'), ECHO_CHECK);
  const checks = join(copy, 'src/checks/registry.ts');
  await register(
    checks,
    'CHECKS',
    'starts_with: startsWith,',
    "import { startsWith } from './kinds/starts-with.js';",
  );
  await register(
    checks,
    'CHECKS',
    'knows_request: knowsRequest,',
    "import { knowsRequest } from './kinds/knows-request.js';",
  );
  const field = documented('Adding a recorded field');
  await writeFile(join(copy, field.path), field.code);
  await register(
    join(copy, 'src/record/registry.ts'),
    'RECORDED',
    'service_tier: serviceTier,',
    "import { serviceTier } from './fields/service-tier.js';",
  );
  // One build, as the README says.
  await exec('npm', ['run', 'build', '--silent'], { cwd: copy, maxBuffer: 16 * 1024 * 1024 });

  service = await startLoopbackService((_req, res) => {
    const body = JSON.parse(completion('Refunds are possible within 30 days.', 'acme/model-1'));
    sendJson(res, 200, JSON.stringify({ ...body, service_tier: tier }));
  });
  project = await makeProject({
    'driftcheck.config.yaml': `services:\n  direct: { kind: direct, base_url: ${service.url}/v1, api_key_env: DIRECT_API_KEY, retries: 0 }\n`,
    'suites/refunds.yaml': [
      'suite: refunds',
      'service: direct',
      'model: acme/model-1',
      'cases:',
      '  - id: window',
      '    prompt: How long is the refund window?',
      '    expect:',
      '      - starts_with: Refunds',
      '      - knows_request: refund window',
      '',
    ].join('\n'),
  });
}, 240_000);

afterAll(async () => {
  await service?.close();
  await project?.cleanup();
  await rm(root, { recursive: true, force: true });
});

describe('a check type and a recorded field added the documented way, one build', () => {
  it('validate accepts a suite using the new check', async () => {
    const validate = await run(['validate']);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
  });

  it('runs them, keeps the field on samples, cases and the baseline, and the report fits the shipped schema', async () => {
    const first = await run(['run', '--update-baselines']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/refunds.json'), 'utf8'));
    expect(baseline.cases.window).toMatchObject({ status: 'pass', service_tier: 'default' });

    // Overnight the service answers from another tier.
    tier = 'flex';
    const second = await run(['run']);
    const dir = runDirFrom(second, project.dir);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report & {
      cases: Record<string, unknown>[];
    };
    const entry = report.cases[0]!;
    expect(entry.checks).toEqual([
      { type: 'starts_with', pass: true, message: 'starts with "Refunds"' },
      { type: 'knows_request', pass: true, message: 'asked "How long is the refund window?"; baseline pass' },
    ]);
    expect(entry).toMatchObject({ service_tier: 'flex', service_tiers: ['flex'] });
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
    expect(journal.map((s) => s.service_tier)).toEqual(['flex']);

    // The shipped schema of the extended copy, as its one build wrote it.
    const schema = JSON.parse(await readFile(join(copy, 'schemas/report.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: true, validateFormats: false }).compile(schema);
    expect(validate(report) ? [] : validate.errors).toEqual([]);
    expect(schema.$defs.check.properties.type.enum).toEqual(
      expect.arrayContaining(['starts_with', 'knows_request']),
    );
  });

  it('the committed schemas check as up to date in the copy once built', async () => {
    const checked = await exec(process.execPath, [join(copy, 'scripts/check-schemas.mjs')]).then(
      () => 0,
      (e: { code: number }) => e.code,
    );
    expect(checked).toBe(0);
  });
});
