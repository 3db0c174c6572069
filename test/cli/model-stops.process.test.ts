import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, readReport, readSamples, runCli, runDirFrom, spawnCli } from '../helpers/cli.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

const ROUTER_KEY = `sk-or-v1-${'ab12'.repeat(16)}`;
const DIRECT_KEY = `sk-${'0123456789abcdef'.repeat(3)}`;

/** A model the router's catalog no longer has, and one the direct service retired. */
const RETIRED_ROUTER = 'openai/gpt-4o-mini-2024-07-18';
const RETIRED_DIRECT = 'kimi-k2-0711-preview';

function suite(name: string, service: string, model: string, cases: number): string {
  const lines = [`suite: ${name}`, `service: ${service}`, `model: ${model}`, 'cases:'];
  for (let i = 0; i < cases; i++)
    lines.push(
      `  - id: c${i}`,
      `    prompt: "Say exactly: ok ${name} ${i}"`,
      '    expect: [{ contains: ok }]',
    );
  return `${lines.join('\n')}\n`;
}

/**
 * The router as documented: its model list at GET /models, and for a model it does not
 * have the 400 "… is not a valid model ID" (errors-and-debugging); other models answer.
 * `hold` keeps an answer of the model it names from being sent (a request in flight).
 */
function fakeRouter(hold: { model: string; seen: () => boolean } | null = null) {
  return startLoopbackService((req, res) => {
    if (req.method === 'GET' && req.path === '/api/v1/models')
      return sendJson(
        res,
        200,
        JSON.stringify({ data: [{ id: 'openai/gpt-4o-mini' }, { id: 'openai/gpt-4o' }] }),
      );
    if (req.model === RETIRED_ROUTER)
      return sendJson(
        res,
        400,
        JSON.stringify({ error: { code: 400, message: `${req.model} is not a valid model ID` } }),
      );
    // Held: never answered (the client gives up on it).
    if (hold && req.model === hold.model && hold.seen()) return;
    sendJson(res, 200, completion(`ok ${req.prompt}`, req.model));
  });
}

/** The direct service as OpenAI documents it: 404 `model_not_found` for a model it does not have. */
function fakeDirect() {
  return startLoopbackService((req, res: ServerResponse) => {
    if (req.method === 'GET' && req.path === '/v1/models')
      return sendJson(
        res,
        200,
        JSON.stringify({
          object: 'list',
          data: [{ id: 'kimi-k2-0905-preview' }, { id: 'kimi-k2-turbo-preview' }],
        }),
      );
    if (req.model === RETIRED_DIRECT)
      return sendJson(
        res,
        404,
        JSON.stringify({
          error: {
            message: `The model \`${req.model}\` does not exist or you do not have access to it.`,
            type: 'invalid_request_error',
            param: null,
            code: 'model_not_found',
          },
        }),
      );
    sendJson(res, 200, completion(`ok ${req.prompt}`, req.model));
  });
}

const config = (router: LoopbackService, direct?: LoopbackService) =>
  `services:
  router: { kind: router, base_url: ${router.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
${direct ? `  direct: { kind: direct, base_url: ${direct.url}/v1, api_key_env: DIRECT_API_KEY, retries: 0 }\n` : ''}`;

const env = { OPENROUTER_API_KEY: ROUTER_KEY, DIRECT_API_KEY: DIRECT_KEY };
const sentTo = (service: LoopbackService, model: string) =>
  service.seen.filter((r) => r.method === 'POST' && r.model === model).length;

describe('a model the service no longer has', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('stops that model at its first answer, runs every other model and suite, and exits 2 saying which, where and what is close', async () => {
    const router = await fakeRouter();
    const direct = await fakeDirect();
    const project = await makeProject({
      'driftcheck.config.yaml': config(router, direct),
      'suites/a-retired.yaml': suite('retired', 'router', RETIRED_ROUTER, 4),
      'suites/b-fine.yaml': suite('fine', 'router', 'openai/gpt-4o-mini', 3),
      'suites/c-direct-retired.yaml': suite('direct-retired', 'direct', RETIRED_DIRECT, 3),
      'suites/d-direct-fine.yaml': suite('direct-fine', 'direct', 'kimi-k2-0905-preview', 2),
    });
    cleanups.push(project.cleanup, router.close, direct.close);
    const result = await runCli(['run', '--concurrency', '1'], { cwd: project.dir, env });
    expect(result.code, result.stderr).toBe(2);

    // One answer each told the story: the retired models were sent nothing more.
    expect(sentTo(router, RETIRED_ROUTER)).toBe(1);
    expect(sentTo(direct, RETIRED_DIRECT)).toBe(1);
    expect(sentTo(router, 'openai/gpt-4o-mini')).toBe(3);
    expect(sentTo(direct, 'kimi-k2-0905-preview')).toBe(2);

    const report = await readReport(runDirFrom(result, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run.status).toBe('completed');
    expect(report.run.exit_code).toBe(2);
    expect(report.run.stop_reason).toBeNull();
    expect(report.run.model_stops).toEqual([
      {
        service: 'router',
        model: RETIRED_ROUTER,
        pinned: ['suites/a-retired.yaml:3:8'],
        hint: 'did you mean openai/gpt-4o-mini?',
        error: expect.objectContaining({ kind: 'invalid_model', http_status: 400 }),
      },
      {
        service: 'direct',
        model: RETIRED_DIRECT,
        pinned: ['suites/c-direct-retired.yaml:3:8'],
        hint: 'did you mean kimi-k2-0905-preview?',
        error: expect.objectContaining({ kind: 'invalid_model', http_status: 404, code: 'model_not_found' }),
      },
    ]);
    const status = (suiteName: string) =>
      report.cases.filter((c) => c.suite === suiteName).map((c) => [c.status, c.error?.kind ?? null]);
    expect(status('retired')).toEqual([
      ['error', 'invalid_model'],
      ...Array(3).fill(['not_run', 'invalid_model']),
    ]);
    expect(status('direct-retired')).toEqual([
      ['error', 'invalid_model'],
      ...Array(2).fill(['not_run', 'invalid_model']),
    ]);
    expect(status('fine')).toEqual(Array(3).fill(['pass', null]));
    expect(status('direct-fine')).toEqual(Array(2).fill(['pass', null]));

    // Which model, where it is pinned, the catalog's nearest id — and no word of the base URL,
    // which answered.
    expect(result.stderr).toContain(
      `stopped model ${RETIRED_ROUTER}: service 'router' answered that it does not have it (invalid_model, HTTP 400: ${RETIRED_ROUTER} is not a valid model ID); its other cases were not sent, every other model and suite ran\n  pinned at suites/a-retired.yaml:3:8\n  → did you mean openai/gpt-4o-mini?`,
    );
    expect(result.stderr).toMatch(
      /stopped model kimi-k2-0711-preview: service 'direct' answered .*\n {2}pinned at suites\/c-direct-retired\.yaml:3:8\n {2}→ did you mean kimi-k2-0905-preview\?/,
    );
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/base_url|endpoint not found/);
    expect(result.stdout).toMatch(/ERROR — a model the service does not have was sent nothing more/);
  });

  it('a resumed run knows the stopped model: it is not sent again, and the resumed run exits 2', async () => {
    // The fine model's answer is held until the run is interrupted, after the retired model stopped.
    let signal: () => void = () => {};
    const inFlight = new Promise<void>((done) => (signal = done));
    let holding = true;
    const router = await fakeRouter({
      model: 'openai/gpt-4o-mini',
      seen: () => {
        signal();
        return holding;
      },
    });
    const project = await makeProject({
      'driftcheck.config.yaml': config(router),
      'suites/a-retired.yaml': suite('retired', 'router', RETIRED_ROUTER, 3),
      'suites/b-fine.yaml': suite('fine', 'router', 'openai/gpt-4o-mini', 2),
    });
    cleanups.push(project.cleanup, router.close);
    const first = spawnCli(['run', '--concurrency', '1'], {
      cwd: project.dir,
      env: { ...env, DRIFTCHECK_INTERRUPT_GRACE_S: '0' },
    });
    await inFlight;
    first.child.kill('SIGINT');
    const interrupted = await first.result;
    expect(interrupted.code, interrupted.stderr).toBe(130);
    const runDir = runDirFrom(interrupted, project.dir);
    expect((await readReport(runDir)).run.model_stops?.map((s) => s.model)).toEqual([RETIRED_ROUTER]);
    expect(sentTo(router, RETIRED_ROUTER)).toBe(1);

    // The router answers the fine model again; the retired one is still retired.
    holding = false;
    const resumed = await runCli(['run', '--resume', runDir], { cwd: project.dir, env });
    expect(resumed.code, resumed.stderr).toBe(2);
    expect(sentTo(router, RETIRED_ROUTER)).toBe(1);
    const report = await readReport(runDir);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run.status).toBe('completed');
    expect(report.run.model_stops?.map((s) => [s.model, s.pinned])).toEqual([
      [RETIRED_ROUTER, ['suites/a-retired.yaml:3:8']],
    ]);
    expect(report.cases.map((c) => [c.id, c.status])).toEqual([
      ['retired/c0', 'error'],
      ['retired/c1', 'not_run'],
      ['retired/c2', 'not_run'],
      ['fine/c0', 'pass'],
      ['fine/c1', 'pass'],
    ]);
    // The journal holds one record of the stop, from the first session.
    const samples = await readSamples(runDir);
    expect(samples.filter((s) => s.requested_model === RETIRED_ROUTER)).toHaveLength(1);
    expect(resumed.stderr).toContain(`stopped model ${RETIRED_ROUTER}`);
  });

  it("a judge's retired model stops that judge: the cases it judges are not run with the reason, the others run", async () => {
    const router = await fakeRouter();
    const judged = `suite: judged
service: router
model: openai/gpt-4o-mini
cases:
${[0, 1, 2].map((i) => `  - id: j${i}\n    prompt: "Say exactly: ok ${i}"\n    expect: [{ contains: ok }, { judge: { model: ${RETIRED_ROUTER}, rubric: says ok } }]`).join('\n')}
  - id: plain
    prompt: "Say exactly: ok plain"
    expect: [{ contains: ok }]
`;
    const project = await makeProject({
      'driftcheck.config.yaml': config(router),
      'suites/judged.yaml': judged,
    });
    cleanups.push(project.cleanup, router.close);
    const result = await runCli(['run', '--concurrency', '1'], { cwd: project.dir, env });
    expect(result.code, result.stderr).toBe(2);
    // The judge was asked once, never again for the cases after it.
    expect(sentTo(router, RETIRED_ROUTER)).toBe(1);
    const report = await readReport(runDirFrom(result, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run.model_stops?.map((s) => [s.model, s.pinned, s.hint])).toEqual([
      [RETIRED_ROUTER, ['suites/judged.yaml (a judge)'], 'did you mean openai/gpt-4o-mini?'],
    ]);
    expect(report.cases.map((c) => [c.case, c.status, c.error?.kind ?? null])).toEqual([
      ['j0', 'not_run', 'invalid_model'],
      ['j1', 'not_run', 'invalid_model'],
      ['j2', 'not_run', 'invalid_model'],
      ['plain', 'pass', null],
    ]);
  });

  it('a wrong base URL (a 404 outside the API) still stops the run at its first answer', async () => {
    // A framework's own 404, as a server answers a path it does not have.
    const wrong = await startLoopbackService((_req, res) =>
      sendJson(
        res,
        404,
        JSON.stringify({ error: 'Not Found', message: 'Cannot POST /api/v2/chat/completions' }),
      ),
    );
    const project = await makeProject({
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: ${wrong.url}/api/v2, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`,
      'suites/b-fine.yaml': suite('fine', 'router', 'openai/gpt-4o-mini', 3),
    });
    cleanups.push(project.cleanup, wrong.close);
    const result = await runCli(['run', '--concurrency', '1'], { cwd: project.dir, env });
    expect(result.code).toBe(2);
    const report = await readReport(runDirFrom(result, project.dir));
    expect(report.run.stop_reason?.kind).toBe('endpoint_not_found');
    expect(report.run.model_stops).toBeUndefined();
    expect(report.summary.not_run).toBe(2);
    expect(result.stderr).toMatch(/stopped: endpoint not found .*check base_url/);
  });
});
