import type { JsonSchema } from '../record/field.js';
import { LATENCY_SKETCH_SCHEMA } from '../stats/sketch.js';
import { RECORDED_FIELDS } from '../record/registry.js';

/**
 * The shapes of the files driftcheck wrote earlier and reads back (report.json, run.json,
 * the journal's records), as JSON Schemas. report.json's is the shipped
 * `schemas/report.schema.json`; the journal's sample lines are its `$defs/sample`, and the
 * other records and run.json are described here in terms of its `$defs`, so that a case
 * error or a message has one definition; what a baseline stores of the recorded fields,
 * from their registry (src/record/). The build step (scripts/compile-schemas.mjs) compiles
 * these into dist/ from the built module.
 */

/** `$id` of the shipped report schema; `${REPORT_ID}#/$defs/…` reaches its definitions. */
const REPORT_ID = 'https://driftcheck.dev/schemas/report.schema.json';

const def = (name: string) => ({ $ref: `${REPORT_ID}#/$defs/${name}` });
const shard = {
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['index', 'total'],
      properties: { index: { type: 'integer', minimum: 1 }, total: { type: 'integer', minimum: 1 } },
    },
  ],
};
const strings = { type: 'array', items: { type: 'string' } };

/** A fragment of the report schema, its `#/$defs/…` references made to reach them from another schema. */
const inReport = (fragment: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(fragment).replaceAll('"#/$defs/', `"${REPORT_ID}#/$defs/`)) as JsonSchema;

/**
 * What a baseline case stores of each recorded field that has a `baseline`: the schema of
 * the case-entry field it stores (src/record/fields/).
 */
const recordedInBaseline = Object.fromEntries(
  RECORDED_FIELDS.flatMap(([name, f]) => {
    if (!f.baseline) return [];
    const fold = f.case?.[f.baseline.from];
    return [[name, inReport(fold ? fold.schema(f.schema) : { ...f.schema, type: [f.schema.type, 'null'] })]];
  }),
);

/** The journal's first line (src/stored/journal/records.ts RunRecord). */
const journalRun = {
  $id: 'https://driftcheck.dev/schemas/stored/journal-run.json',
  type: 'object',
  required: ['id', 'started_at', 'command', 'sim', 'candidate_model', 'shard'],
  properties: {
    id: { type: 'string' },
    started_at: { type: 'string' },
    command: strings,
    driftcheck_version: { type: 'string' },
    sim: { type: 'boolean' },
    candidate_model: { type: ['string', 'null'] },
    shard,
    complete: { type: 'boolean' },
  },
};

/** One planned suite (PlanRecord): its cases in plan order, with the messages a report shows (or a table row's place). */
const journalPlan = {
  $id: 'https://driftcheck.dev/schemas/stored/journal-plan.json',
  type: 'object',
  required: ['suite', 'file', 'service', 'requested_model', 'cases'],
  properties: {
    suite: { type: 'string' },
    file: { type: 'string' },
    service: { type: 'string' },
    requested_model: { type: 'string' },
    drift: { type: 'object' },
    tables: {
      type: 'array',
      items: {
        type: 'object',
        required: ['file', 'format', 'rows', 'digest'],
        properties: {
          file: { type: 'string' },
          format: { type: 'string' },
          rows: { type: 'integer', minimum: 0 },
          digest: { type: 'string' },
          template: { type: 'string' },
          case: { type: 'object' },
        },
      },
    },
    cases: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'ordinal', 'repeat'],
        // A written case holds its messages; a case made from a table row, the row's place (journal 5).
        properties: {
          id: { type: 'string' },
          ordinal: { type: 'integer', minimum: 0 },
          repeat: { anyOf: [{ type: 'integer', minimum: 1 }, { const: 'auto' }] },
          messages: { type: 'array', items: def('message') },
          row: {
            type: 'array',
            items: { type: 'integer', minimum: 0 },
            minItems: 2,
            maxItems: 2,
          },
          sent: { type: 'string' },
          drift: { type: 'object' },
        },
      },
    },
  },
};

/** A model the run stopped sending to (ModelStopRecord): report.json's `run.model_stops` item. */
const journalModelStop = {
  $id: 'https://driftcheck.dev/schemas/stored/journal-model-stop.json',
  $ref: `${REPORT_ID}#/$defs/modelStop`,
};

/** One answered request of a conversation (StepLine): whose it is, where in it, and what it cost. */
const journalStep = {
  $id: 'https://driftcheck.dev/schemas/stored/journal-step.json',
  type: 'object',
  required: ['key', 'suite', 'case', 'repeat', 'turn', 'step', 'model', 'usage', 'latency_ms', 'attempts'],
  properties: {
    key: { type: 'string' },
    suite: { type: 'string' },
    case: { type: 'string' },
    repeat: { type: 'integer', minimum: 0 },
    turn: { type: 'integer', minimum: 1 },
    step: { type: 'integer', minimum: 1 },
    model: { type: ['string', 'null'] },
    provider: { type: ['string', 'null'] },
    finish_reason: { type: ['string', 'null'] },
    usage: def('usage'),
    latency_ms: { type: 'number', minimum: 0 },
    attempts: { type: 'integer', minimum: 0 },
    error: def('caseError'),
  },
};

/** How a session of the run stopped (EndRecord). */
const journalEnd = {
  $id: 'https://driftcheck.dev/schemas/stored/journal-end.json',
  type: 'object',
  required: ['finished_at', 'status', 'stop'],
  properties: {
    finished_at: { type: 'string' },
    status: { enum: ['completed', 'paused', 'interrupted'] },
    bail: {
      type: 'object',
      required: ['limit', 'failing'],
      properties: { limit: { type: 'integer', minimum: 1 }, failing: { type: 'integer', minimum: 0 } },
    },
    stop: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['kind', 'error'],
          properties: { kind: { enum: ['paused', 'access', 'config'] }, error: def('caseError') },
        },
        {
          type: 'object',
          required: ['kind', 'signal'],
          properties: {
            kind: { const: 'interrupted' },
            error: { type: 'null' },
            signal: { enum: ['SIGINT', 'SIGTERM'] },
          },
        },
        {
          type: 'object',
          required: ['kind'],
          properties: { kind: { const: 'killed' }, error: { type: 'null' } },
        },
      ],
    },
  },
};

/** `reports/<run-id>/run.json` (src/run/meta.ts RunMeta): what a resume re-plans from. */
const runMeta = {
  $id: 'https://driftcheck.dev/schemas/stored/run.json',
  type: 'object',
  required: ['command', 'paths', 'plan'],
  properties: {
    id: { type: 'string' },
    started_at: { type: 'string' },
    command: strings,
    paths: strings,
    config_file: { type: ['string', 'null'] },
    allow_alias: { type: 'boolean' },
    sim: { type: 'boolean' },
    plan: {
      type: 'object',
      properties: {
        repeat: { anyOf: [{ type: 'integer', minimum: 1 }, { const: 'auto' }] },
        filter: { type: 'string' },
        shard: shard.oneOf[1],
        model: { type: 'string' },
        service: { type: 'string' },
        cases: strings,
        stream: { const: true },
      },
    },
    concurrency: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
    update_baselines: { type: 'boolean' },
    comparison: { type: 'string' },
    bail: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
  },
};

/**
 * A comparison folder's `candidates.json` (src/run/candidates-file.ts): the candidates of a
 * `run --models`/`--providers` command and the run each is (to be) made in.
 */
const candidatesFile = {
  $id: 'https://driftcheck.dev/schemas/stored/candidates.json',
  type: 'object',
  required: ['version', 'flag', 'meta', 'reference', 'candidates'],
  properties: {
    version: { const: 1 },
    flag: { enum: ['--models', '--providers'] },
    meta: { $ref: runMeta.$id },
    reference: { type: ['string', 'null'] },
    candidates: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['label', 'run_id', 'candidate', 'plan', 'skipped'],
        properties: {
          label: { type: 'string' },
          run_id: { type: 'string', pattern: '^\\d{8}T\\d{6}(?:\\d{3})?Z-[0-9a-f]{4}$' },
          candidate: {
            type: 'object',
            properties: { model: { type: 'string' }, provider: { type: 'string' } },
          },
          plan: { $ref: `${runMeta.$id}#/properties/plan` },
          skipped: {
            type: 'array',
            items: {
              type: 'object',
              required: ['suite', 'reason'],
              properties: { suite: { type: 'string' }, reason: { type: 'string' } },
            },
          },
        },
      },
    },
  },
};

/**
 * report.json of driftcheck 0.1 (schema 1, one entry per sample), as far as its readers read
 * it (history/from-report.ts, journal/legacy.ts): 0.1's own schema is no longer shipped.
 */
const reportV1 = {
  $id: 'https://driftcheck.dev/schemas/stored/report-v1.json',
  type: 'object',
  required: ['schema_version', 'run', 'suites', 'cases'],
  properties: {
    schema_version: { const: 1 },
    run: {
      type: 'object',
      required: ['id', 'started_at', 'finished_at', 'exit_code', 'status'],
      properties: {
        id: { type: 'string' },
        started_at: { type: 'string' },
        finished_at: { type: 'string' },
        exit_code: { type: 'integer' },
        status: { enum: ['completed', 'paused', 'interrupted'] },
        command: strings,
        driftcheck_version: { type: 'string' },
        sim: { type: 'boolean' },
        candidate_model: { type: ['string', 'null'] },
        shard,
        stop_reason: { oneOf: [{ type: 'null' }, def('caseError')] },
      },
    },
    summary: {
      type: 'object',
      properties: {
        total: { type: 'integer' },
        samples: { type: 'integer' },
        not_run: { type: 'integer' },
      },
    },
    suites: {
      type: 'array',
      items: {
        type: 'object',
        required: ['suite', 'models', 'pass_rates'],
        properties: {
          suite: { type: 'string' },
          file: { type: 'string' },
          models: strings,
          baseline: { type: ['string', 'null'] },
          pass_rates: {
            type: 'array',
            items: {
              type: 'object',
              required: ['case', 'failing'],
              properties: { case: { type: 'string' }, failing: { type: 'boolean' } },
            },
          },
        },
      },
    },
    cases: {
      type: 'array',
      items: {
        type: 'object',
        required: ['suite', 'case', 'status', 'model', 'usage', 'latency_ms', 'error', 'drift'],
        properties: {
          suite: { type: 'string' },
          case: { type: 'string' },
          status: { enum: ['pass', 'fail', 'error', 'not_run'] },
          service: { type: 'string' },
          requested_model: { type: 'string' },
          model: { type: ['string', 'null'] },
          usage: def('usage'),
          latency_ms: { type: ['number', 'null'] },
          error: { oneOf: [{ type: 'null' }, def('caseError')] },
          drift: {
            type: 'array',
            items: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
          },
          messages: { type: 'array', items: def('message') },
        },
      },
    },
  },
};

/** `baselines/<suite>.json` (src/stored/baseline/types.ts Baseline): the fields the differ and serializer rely on. */
const baseline = {
  $id: 'https://driftcheck.dev/schemas/stored/baseline.json',
  type: 'object',
  required: ['schema_version', 'suite', 'service', 'model', 'source_run', 'cases'],
  properties: {
    schema_version: { const: 1 },
    suite: { type: 'string' },
    service: { type: 'string' },
    model: { type: 'string' },
    source_run: { type: 'string' },
    provenance: {
      type: 'object',
      required: ['kind', 'sim', 'shard', 'complete', 'forced'],
      properties: {
        kind: { enum: ['nightly', 'candidate'] },
        sim: { type: 'boolean' },
        shard,
        complete: { type: 'boolean' },
        forced: { type: 'boolean' },
      },
    },
    cases: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: [
          'status',
          'requested_model',
          'model',
          'finish_reason',
          'usage',
          'content',
          'error_kind',
          'checks',
        ],
        properties: {
          status: { enum: ['pass', 'fail', 'error'] },
          requested_model: { type: 'string' },
          model: { type: ['string', 'null'] },
          finish_reason: { type: ['string', 'null'] },
          usage: def('usage'),
          content: { type: ['string', 'null'] },
          error_kind: { type: ['string', 'null'] },
          checks: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type', 'pass'],
              properties: { type: { type: 'string' }, pass: { type: 'boolean' } },
            },
          },
          samples: {
            type: 'object',
            required: ['pass', 'total'],
            properties: { pass: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0 } },
          },
          within_max_steps: {
            type: 'object',
            required: ['pass', 'total'],
            properties: { pass: { type: 'integer', minimum: 0 }, total: { type: 'integer', minimum: 0 } },
          },
          latency_ms: LATENCY_SKETCH_SCHEMA,
          ...recordedInBaseline,
        },
      },
    },
  },
};

/** Every stored shape by the name readers ask for, with the schema (or `$ref`) that checks it. */
export const STORED_SHAPES = {
  /** A report.json's head: the whole report with its cases left out (each is checked as read). */
  report: REPORT_ID,
  case: `${REPORT_ID}#/$defs/case`,
  sample: `${REPORT_ID}#/$defs/sample`,
  'journal-run': journalRun.$id,
  'journal-plan': journalPlan.$id,
  'journal-model_stop': journalModelStop.$id,
  'journal-step': journalStep.$id,
  'journal-end': journalEnd.$id,
  'run-meta': runMeta.$id,
  'candidates-file': candidatesFile.$id,
  'report-v1': reportV1.$id,
  baseline: baseline.$id,
} as const;

export type StoredShape = keyof typeof STORED_SHAPES;

/** The schemas to add beside the report schema before compiling STORED_SHAPES. */
export const OWN_SCHEMAS: readonly object[] = [
  journalRun,
  journalPlan,
  journalModelStop,
  journalStep,
  journalEnd,
  runMeta,
  candidatesFile,
  reportV1,
  baseline,
];

/**
 * The report schema as a reader applies it: what the current writer writes, read leniently
 * where files written by other versions of driftcheck differ harmlessly — a key it does not
 * know is carried or ignored, never a reason to refuse the file (`additionalProperties:
 * false` describes the writer, not the reader), and a report written before `run.provenance`
 * existed has none (fold/provenance.ts derives it). A deep copy; the argument is not changed.
 */
export function readingSchema(reportSchema: object): object {
  const copy = structuredClone(reportSchema) as Record<string, unknown>;
  const strip = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.additionalProperties === false) delete n.additionalProperties;
    for (const value of Object.values(n)) strip(value);
  };
  strip(copy);
  const properties = copy.properties as Record<string, { required?: string[]; const?: unknown }> | undefined;
  const run = properties?.run;
  if (run?.required) run.required = run.required.filter((key) => key !== 'provenance');
  // Schema 2 reports (every field of every case) are read too: openReport restores 3's lines.
  const version = properties?.schema_version as { const?: unknown; enum?: unknown[] } | undefined;
  if (version && typeof version.const === 'number') {
    version.enum = [2, version.const];
    delete version.const;
  }
  return copy;
}
