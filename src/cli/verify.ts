import { countOf, formatUsd } from '../util/numbers.js';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { PreflightError } from '../util/errors.js';
import { EXIT, type ExitCode, worstExit } from '../util/exit-codes.js';
import { isAccessStop, isBudgetCondition, isConfigStop, isModelStop } from '../core/error-kinds.js';
import { createServiceClient } from '../service/client.js';
import { resolveApiKey } from '../service/preflight.js';
import { loadSuites } from '../suite/load.js';
import { simRequestHeaders } from '../sim/protocol.js';
import type { Config, ServiceConfig } from '../config/types.js';
import { adapterOf } from '../adapters/index.js';
import { SIM_VERIFY_MODELS } from '../sim/catalog.js';
import type { CallOutcome } from '../service/types.js';
import type { StreamTiming } from '../core/stream-timing.js';
import { serviceNamed } from '../config/services.js';
import type { CliIO } from './io.js';
import { simulateServices } from './sim-setup.js';

/** `driftcheck verify`: one minimal call per service, with a classified verdict. */
export async function verifyCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      service: { type: 'string' },
      config: { type: 'string' },
      sim: { type: 'boolean' },
      model: { type: 'string' },
      stream: { type: 'boolean' },
    },
    strict: true,
  });
  let config = await loadConfig(values.config, io.env, io.cwd);
  const names = values.service ? [values.service] : Object.keys(config.services);
  for (const name of names) serviceNamed(config, name);
  const models = values.sim ? null : await suiteModels(config, io);
  let env = io.env;
  const sim = values.sim ? await simulateServices(config, env) : null;
  if (sim) ({ config, env } = sim);
  const codes: ExitCode[] = [];
  try {
    for (const name of names) {
      const service = config.services[name]!;
      const model =
        values.model ??
        service.verify_model ??
        (sim ? SIM_VERIFY_MODELS[adapterOf(service).simulator] : models?.get(name));
      codes.push(await verifyService(service, model, env, io, values.stream === true));
    }
  } finally {
    await sim?.simulator.close();
  }
  return worstExit(codes);
}

async function verifyService(
  service: ServiceConfig,
  model: string | undefined,
  env: NodeJS.ProcessEnv,
  io: CliIO,
  /** `--stream`: the request asks for its answer as a stream, as `run --stream` sends it. */
  stream: boolean,
): Promise<ExitCode> {
  io.stdout(`${service.name} (${service.kind}) → ${service.base_url || '(no base URL)'}\n`);
  let apiKey: string;
  try {
    apiKey = resolveApiKey(service, env);
  } catch (error) {
    if (!(error instanceof PreflightError)) throw error;
    io.stdout(`  verdict: preflight — ${error.message}\n  nothing was sent\n`);
    return EXIT.usage;
  }
  if (!model) {
    io.stdout(
      `  verdict: preflight — no model to call: pass --model ID, set verify_model for '${service.name}' in the config, or add a suite that uses it\n`,
    );
    return EXIT.usage;
  }
  // The seed's verification call, as the kind's adapter gives it: not the service's configured values.
  const first = adapterOf(service).verify;
  const client = createServiceClient({
    // Its cap is sent as any default cap is: under the name the service's config gives caps.
    service: { ...service, timeout_s: first.timeout_s, retries: first.retries, max_tokens: first.max_tokens },
    apiKey,
    requestHeaders: simRequestHeaders,
  });
  let outcome: CallOutcome;
  try {
    outcome = await client.complete({
      model,
      messages: [{ role: 'user', content: 'Reply with the single word: OK' }],
      params: stream ? { stream } : {},
    });
  } finally {
    await client.close();
  }
  const c = outcome.completion;
  const usage = c?.usage;
  const lines = [
    `  model: requested ${model} · answered ${c?.model ?? '—'}`,
    `  finish_reason: ${c?.finish_reason ?? '—'}`,
    `  usage: ${usage ? `${usage.prompt_tokens ?? '?'} prompt + ${usage.completion_tokens ?? '?'} completion = ${usage.total_tokens ?? '?'} tokens${usage.cost != null ? ` · cost ${formatUsd(usage.cost)}` : ''}` : 'not reported'}`,
  ];
  if (stream) lines.push(`  stream: ${streamLine(c?.stream ?? outcome.stream)}`);
  let code: ExitCode = EXIT.ok;
  if (outcome.status === 'ok') {
    lines.push(`  verdict: ok (HTTP ${outcome.http_status}, ${Math.round(outcome.latency_ms)} ms)`);
  } else {
    const e = outcome.error;
    lines.push(
      `  verdict: ${e.kind}${e.http_status ? ` (HTTP ${e.http_status})` : ''}${e.type ? ` type=${e.type}` : ''}${e.code ? ` code=${e.code}` : ''} — ${e.message}`,
    );
    // A wrong base_url or a model the service lacks is a configuration problem (exit 2), as the message says.
    code =
      isConfigStop(e) || isModelStop(e)
        ? EXIT.usage
        : isAccessStop(e)
          ? EXIT.access
          : isBudgetCondition(e)
            ? EXIT.paused
            : EXIT.failure;
  }
  // The client redacted the answer as it read it: nothing here can hold the key.
  io.stdout(`${lines.join('\n')}\n`);
  return code;
}

/**
 * How the answer streamed: `first token 312 ms · last token 880 ms · 14 chunks · 95.2
 * tokens/s` (as run records it: record/fields/stream.ts), or that it came whole.
 */
function streamLine(s: (StreamTiming & { tokens_per_s?: number | null }) | null | undefined): string {
  if (!s) return 'none: the answer came whole (an error comes as JSON)';
  const ms = (v: number | null) => (v === null ? '—' : `${Math.round(v)} ms`);
  const rate = s.tokens_per_s != null ? ` · ${s.tokens_per_s} tokens/s` : '';
  return `first token ${ms(s.first_token_ms)} · last token ${ms(s.last_token_ms)} · ${countOf(s.chunks, 'chunk')}${rate}`;
}

/** The first model each service is used with in the default suites, when they load. */
async function suiteModels(config: Config, io: CliIO): Promise<Map<string, string>> {
  const models = new Map<string, string>();
  try {
    for (const suite of await loadSuites([resolve(io.cwd, 'suites')], { allowAlias: false, cwd: io.cwd })) {
      if (config.services[suite.service] && !models.has(suite.service))
        models.set(suite.service, suite.model);
    }
  } catch {
    // No usable suites: verify still works with --model or verify_model.
  }
  return models;
}
