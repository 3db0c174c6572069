import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildJudgeRequest } from '../../src/checks/judge.js';
import { runJudge } from '../../src/run/judge-run.js';
import { createServiceClient } from '../../src/service/client.js';
import { simRequestHeaders } from '../../src/sim/protocol.js';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';
import type { ServiceConfig } from '../../src/config/types.js';
import type { SimFlavour } from '../../src/adapters/index.js';
import type { JudgeSpec } from '../../src/checks/judge.js';
import type { ServiceClient } from '../../src/service/types.js';
import { call } from '../sim/helpers.js';

let sim: Simulator;
const clients: ServiceClient[] = [];

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
});

function client(kind: SimFlavour): ServiceClient {
  const service: ServiceConfig = {
    name: kind,
    kind,
    base_url: kind === 'router' ? sim.routerBaseUrl : sim.directBaseUrl,
    api_key_env: 'UNUSED',
    headers: {},
    max_tokens: 512,
    timeout_s: 10,
    retries: 0,
    concurrency: 2,
  };
  const c = createServiceClient({ service, apiKey: generateSimKey(kind), requestHeaders: simRequestHeaders });
  clients.push(c);
  return c;
}

const baseline = 'Refunds are accepted within 30 days of purchase, with the receipt.';

describe('the simulator judge (over HTTP)', () => {
  // [name, spec, candidate, expected verdict, reason pattern]
  it.each<[string, JudgeSpec, string, 'pass' | 'fail', RegExp]>([
    [
      'rubric phrase present (any case)',
      { model: 'openai/gpt-4o-mini', rubric: 'must mention "30 DAYS"' },
      baseline,
      'pass',
      /mentions "30 DAYS"/,
    ],
    [
      'rubric phrase missing',
      { model: 'openai/gpt-4o-mini', rubric: 'must mention "30 days" and “receipt”' },
      'Refunds within 14 days, receipt needed.',
      'fail',
      /does not mention "30 days"/,
    ],
    [
      'curly-quoted phrase missing',
      { model: 'openai/gpt-4o-mini', rubric: 'must mention “receipt”' },
      'Refunds within 30 days.',
      'fail',
      /does not mention "receipt"/,
    ],
    [
      'rubric without quotes passes',
      { model: 'openai/gpt-4o-mini', rubric: 'be polite' },
      'No.',
      'pass',
      /meets the rubric/,
    ],
    [
      'equivalent rewording',
      { model: 'openai/gpt-4o-mini', equivalent_to_baseline: true },
      'refunds are accepted within 30 days of purchase with the receipt',
      'pass',
      /equivalent to the baseline \(similarity/,
    ],
    [
      'different answer',
      { model: 'openai/gpt-4o-mini', equivalent_to_baseline: true },
      'We do not offer refunds on sale items.',
      'fail',
      /differs from the baseline \(similarity 0\.\d\d < 0\.6\)/,
    ],
    [
      'both asked, rubric fails first',
      { model: 'openai/gpt-4o-mini', rubric: 'must mention "receipt"', equivalent_to_baseline: true },
      'Refunds are accepted within 30 days of purchase.',
      'fail',
      /does not mention "receipt"/,
    ],
    [
      'wordy model wraps its verdict in a fence',
      { model: 'anthropic/claude-sonnet-4.5', rubric: 'must mention "30 days"' },
      baseline,
      'pass',
      /mentions "30 days"/,
    ],
  ])('%s', async (_name, spec, candidate, verdict, reason) => {
    const { check, outcome } = await runJudge(spec, candidate, baseline, client('router'));
    expect(outcome?.status).toBe('ok');
    expect(check.pass).toBe(verdict === 'pass');
    expect(check.judge?.verdict).toBe(verdict);
    expect(check.judge?.reason).toMatch(reason);
    expect(check.judge?.model).toBe(spec.model);
    expect(check.judge?.usage?.total_tokens).toBeGreaterThan(0);
    expect(check.judge?.usage?.cost).toBeGreaterThan(0);
  });

  it('answers the fixed prompt deterministically in one JSON line (raw HTTP)', async () => {
    const request = buildJudgeRequest(
      { model: 'openai/gpt-4o-mini', rubric: 'must mention "30 days"' },
      baseline,
      null,
    );
    const send = () =>
      call(`${sim.routerBaseUrl}/chat/completions`, {
        key: generateSimKey('router'),
        body: { model: request.model, messages: request.messages, ...request.params },
      });
    const [a, b] = [await send(), await send()];
    expect(a.status).toBe(200);
    const content = a.json.choices[0].message.content as string;
    expect(content).toBe(b.json.choices[0].message.content);
    expect(JSON.parse(content)).toEqual({ verdict: 'pass', reason: 'the answer mentions "30 days"' });
    expect(a.json.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('prices a direct judge from prices: (the direct service reports no cost)', async () => {
    const spec: JudgeSpec = {
      model: 'kimi-k2-0905-preview',
      service: 'direct',
      equivalent_to_baseline: true,
    };
    const bare = await runJudge(spec, baseline, baseline, client('direct'));
    expect(bare.check.pass).toBe(true);
    expect(bare.check.judge?.usage?.cost ?? null).toBeNull();
    const priced = await runJudge(spec, baseline, baseline, client('direct'), {
      prices: { 'kimi-k2-0905-preview': { prompt: 0.6, completion: 2.5 } },
    });
    const u = priced.check.judge!.usage!;
    expect(u.cost).toBeCloseTo((0.6 * u.prompt_tokens! + 2.5 * u.completion_tokens!) / 1e6, 12);
  });

  it('records a failed judge call as a failing check, with the outcome for the runner', async () => {
    const { check, outcome } = await runJudge(
      { model: 'nobody/no-such-model', rubric: 'x' },
      baseline,
      null,
      client('router'),
    );
    expect(outcome?.status).toBe('error');
    expect(check.pass).toBe(false);
    expect(check.judge?.verdict).toBe('error');
    expect(check.message).toMatch(/judge call failed \(invalid_model/);
  });

  it('sends nothing when there is nothing to compare with', async () => {
    const before = sim.stats().completions;
    const { check, outcome } = await runJudge(
      { model: 'openai/gpt-4o-mini', equivalent_to_baseline: true },
      baseline,
      null,
      client('router'),
    );
    expect(outcome).toBeNull();
    expect(check.judge?.verdict).toBe('skipped');
    expect(sim.stats().completions).toBe(before);
  });
});
