import { UsageError } from '../util/errors.js';
import { candidateLabel } from '../fold/provenance.js';
import {
  type Candidate,
  candidateSkips,
  endpointKey,
  type Fit,
  providerKnown,
} from '../run/candidate-fit.js';
import { suitesInPlan } from '../run/plan.js';
import { type PlanOptions } from '../stored/journal/records.js';
import { type CasesOf } from '../suite/load.js';
import type { CatalogReader, ProviderLists } from '../service/check-models.js';
import { isAlias } from '../adapters/alias.js';
import { adapterOf } from '../adapters/index.js';
import type { Config, ServiceConfig } from '../config/types.js';
import type { Suite } from '../suite/types.js';
import type { SkippedSuite } from '../stored/report/types.js';

/** The candidates of one `run`, as its flags gave them. */
export interface CandidateFlags {
  /** The flag they came from, as messages name it. */
  flag: '--model' | '--models' | '--providers';
  list: Candidate[];
  /** Whether the runs are compared side by side (`--models`, `--providers`), or one is run (`--model`). */
  compare: boolean;
}

/**
 * `--model ID`, `--models A,B,…`, `--providers a,b,…` (with `--model`: that model's
 * providers): the candidates to run, or null for a nightly run. Refuses what cannot go
 * together, and `~latest` aliases without `--allow-alias` (they can move between runs).
 */
export function parseCandidates(values: {
  model?: string | undefined;
  models?: string | undefined;
  providers?: string | undefined;
  resume?: boolean | undefined;
  'update-baselines'?: boolean | undefined;
  'allow-alias'?: boolean | undefined;
}): CandidateFlags | null {
  const models =
    values.models !== undefined
      ? listOf('--models', values.models, 'model ids', 'openai/gpt-4o-mini,anthropic/claude-sonnet-4.5')
      : null;
  const providers =
    values.providers !== undefined
      ? listOf('--providers', values.providers, 'provider slugs', 'deepinfra,together,groq')
      : null;
  if (models && (values.model || values.resume || values['update-baselines'] || providers))
    throw new UsageError(
      '--models compares candidates against the current baseline: it cannot go with --model, --providers, --resume or --update-baselines',
    );
  if (providers && (values.resume || values['update-baselines']))
    throw new UsageError(
      '--providers compares providers against the current baseline: it cannot go with --resume or --update-baselines\n  → to pin one provider for good, set params.provider in the suite (driftcheck pin --provider)',
    );
  if (values.model && values['update-baselines'] && !values.resume)
    throw new UsageError(
      '--model runs a candidate against the current baseline and cannot also --update-baselines; review the report, then `driftcheck baseline accept RUN_DIR`',
    );
  const flags: CandidateFlags | null = models
    ? { flag: '--models', list: models.map((model) => ({ model })), compare: true }
    : providers
      ? {
          flag: '--providers',
          list: providers.map((provider) => ({ provider, ...(values.model ? { model: values.model } : {}) })),
          compare: true,
        }
      : values.model
        ? { flag: '--model', list: [{ model: values.model }], compare: false }
        : null;
  // An alias from the command line is refused like one in a suite: it can move between runs.
  for (const { model } of flags?.list ?? []) {
    if (model && isAlias(model) && !values['allow-alias'])
      throw new UsageError(
        `${flags!.flag === '--models' ? '--models' : '--model'}: ${model} is a ~latest alias, which can resolve to another model tomorrow\n  → name a concrete model (driftcheck pin resolves an alias to today's), or pass --allow-alias`,
      );
  }
  return flags;
}

function listOf(flag: string, text: string, what: string, example: string): string[] {
  const items = [
    ...new Set(
      text
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ];
  if (items.length === 0)
    throw new UsageError(`${flag} expects a comma-separated list of ${what}\n  → e.g. ${flag} ${example}`);
  return items;
}

/** One candidate with the plan it runs: its model or provider, and the suites it leaves out. */
export interface PlannedCandidate {
  candidate: Candidate;
  plan: PlanOptions;
  skipped: SkippedSuite[];
}

/**
 * Decides, before anything is sent, which suites each candidate runs: the services' model
 * lists are read once (a model fits the services that list it; without a list, the id's
 * shape decides), and a suite whose service the candidate does not belong to is skipped —
 * never sent the candidate to fail on. A candidate that fits no suite of the selection is
 * a usage error (exit 2) naming why, with the closest ids for a typo.
 */
export async function planCandidates(
  flags: CandidateFlags,
  suites: Suite[],
  plan: PlanOptions,
  config: Config,
  readCatalogs: CatalogReader,
  /** A suite's cases (a suite loaded without them is read for a filter's ids). */
  casesOf?: CasesOf,
  /** The routing services' providers and models' endpoints, read for `--providers`. */
  lists?: ProviderLists,
): Promise<PlannedCandidate[]> {
  // The filtered selection, before any shard: every shard skips the same suites.
  const selection = await suitesInPlan(suites, plan.filter ? { filter: plan.filter } : {}, casesOf);
  const services = plan.service
    ? [config.services[plan.service]]
    : selection.map((s) => config.services[s.service]);
  const known = [...new Set(services.filter((s): s is ServiceConfig => s !== undefined))];
  const catalogs = flags.list.some((c) => c.model) ? await readCatalogs(known) : new Map<string, null>();
  const routing = providerChecks(flags, selection, plan, config, lists);
  const endpoints = await routing.endpoints;
  const providers = await routing.providers;
  const planned: PlannedCandidate[] = [];
  const problems: string[] = [];
  for (const candidate of flags.list) {
    // A provider slug the router does not have (a typo) is named before any suite is looked at.
    const listed: Fit = candidate.provider ? providerKnown(candidate.provider, providers) : { fits: true };
    if (!listed.fits) {
      const hint = listed.hint ? `\n  → ${listed.hint}` : '';
      problems.push(`${candidateLabel(labelled(candidate))}: ${listed.reason}${hint}`);
      continue;
    }
    const fit = candidateSkips(selection, candidate, config.services, catalogs, plan.service, endpoints);
    if ('none' in fit) {
      const why = fit.none.map((line) => `  ${line}`).join('\n');
      problems.push(`${candidateLabel(labelled(candidate))} fits no suite of the selection:\n${why}`);
      continue;
    }
    planned.push({
      candidate,
      skipped: fit.skip,
      plan: {
        ...plan,
        ...(candidate.model ? { model: candidate.model } : {}),
        ...(candidate.provider ? { provider: candidate.provider } : {}),
        ...(fit.skip.length ? { skip: fit.skip } : {}),
      },
    });
  }
  if (problems.length) throw new UsageError(`${flags.flag}: nothing was sent\n${problems.join('\n')}`);
  return planned;
}

/**
 * What `--providers` reads before anything is sent: each routing service's providers (`GET
 * /providers`, for a mistyped slug) and, for each model its suites would send, the providers
 * with an endpoint of it (`GET /models/{author}/{slug}/endpoints`). Nothing is read for
 * `--model`/`--models`, or without `lists`; what cannot be read is not checked.
 */
function providerChecks(
  flags: CandidateFlags,
  selection: readonly Suite[],
  plan: PlanOptions,
  config: Config,
  lists: ProviderLists | undefined,
): {
  providers: Promise<{ service: ServiceConfig; slugs: string[] | null }[]>;
  endpoints: Promise<Map<string, string[] | null>>;
} {
  const asked = flags.list.filter((c) => c.provider);
  if (!lists || asked.length === 0)
    return { providers: Promise.resolve([]), endpoints: Promise.resolve(new Map()) };
  const pairs = new Map<string, { service: ServiceConfig; model: string }>();
  for (const suite of selection) {
    const service = config.services[plan.service ?? suite.service];
    if (!service || !adapterOf(service).routing) continue;
    for (const model of new Set(asked.map((c) => c.model ?? suite.model)))
      pairs.set(endpointKey(service.name, model), { service, model });
  }
  const routers = [...new Set([...pairs.values()].map((p) => p.service))];
  return {
    providers: Promise.all(
      routers.map(async (service) => ({ service, slugs: await lists.providers(service) })),
    ),
    endpoints: Promise.all(
      [...pairs].map(
        async ([key, { service, model }]) => [key, await lists.endpoints(service, model)] as const,
      ),
    ).then((read) => new Map(read)),
  };
}

/** A candidate in the shape candidateLabel names. */
export function labelled(candidate: Candidate): {
  candidate_model: string | null;
  candidate_provider: string | null;
} {
  return { candidate_model: candidate.model ?? null, candidate_provider: candidate.provider ?? null };
}

/** What the console says of a candidate's skipped suites, one line each. */
export function skippedLines(label: string, skipped: readonly SkippedSuite[]): string {
  return skipped.map((s) => `driftcheck: ${label}: skipped suite ${s.suite}: ${s.reason}\n`).join('');
}
