import { counts } from '../fold/pass-rates.js';
import { formatP } from '../stats/format-p.js';
import { DEFAULT_ALPHA, type Samples, suiteVerdict, sumSamples } from '../stats/index.js';
import type { FieldDrift } from './served-change.js';
import type { ToolUse } from './tool-use.js';

type RateKind = 'tool_trigger_changed' | 'tool_call_invalid';
export type ToolRateDrift = FieldDrift<RateKind>;

/** One case's tool use tonight and in its baseline. */
export interface ToolRateCase {
  case: string;
  baseline: ToolUse;
  current: ToolUse;
}

export interface ToolRateAnalysis {
  /** Each flagged case's rate drift (tool_trigger_changed, tool_call_invalid), by case id. */
  caseDrift: Map<string, ToolRateDrift[]>;
  /** The suite's pooled findings: the same kinds, when the stratified test over its repeated tool cases fires. */
  suiteDrift: ToolRateDrift[];
}

/**
 * A case whose tool use is judged by its rates: sampled more than once on either side.
 * Cases answered once on both sides keep the per-answer rules of `toolDrift`.
 */
export function repeatedToolUse(was: ToolUse, now: ToolUse): boolean {
  return was.answered > 1 || now.answered > 1;
}

/** Counts the stored and folded entries must hold before a test reads them (a hand-edited baseline may not). */
function sane(s: Samples): boolean {
  return (
    Number.isInteger(s.pass) && Number.isInteger(s.total) && s.pass >= 0 && s.pass <= s.total && s.total > 0
  );
}

interface Rate {
  case: string;
  base: Samples;
  now: Samples;
}

/** How one rate is tested: its kind, its label in messages, and whether a rise is drift too. */
interface Family {
  kind: RateKind;
  label: string;
  both: boolean;
}

const TRIGGER: Family = { kind: 'tool_trigger_changed', label: 'tool-call rate', both: true };
const VALID: Family = { kind: 'tool_call_invalid', label: 'valid-call rate', both: false };

/**
 * One rate over a suite's repeated tool cases, by the pass rates' suite decision
 * (`suiteVerdict`: the exact stratified test over every case, per-case flags only when it
 * rejects and the case's Holm-adjusted p ≤ its level). A rate that may move either way (the
 * trigger rate) is tested for a fall and for a rise, each at half the level, so a standing
 * rate flags something on at most `alpha` of the nights whatever the suite's size.
 */
function testRate(family: Family, rates: readonly Rate[], alpha: number, out: ToolRateAnalysis): void {
  if (rates.length === 0) return;
  const level = family.both ? alpha / 2 : alpha;
  const fell = suiteVerdict(
    rates.map((r) => ({ baseline: r.base, current: r.now })),
    { alpha: level },
  );
  const rose = family.both
    ? suiteVerdict(
        rates.map((r) => ({ baseline: r.now, current: r.base })),
        { alpha: level },
      )
    : null;
  const m = rates.length;
  const how =
    (m > 1 ? `Holm-adjusted over ${m} repeated tool cases, ` : '') +
    `alpha ${level}${family.both ? ' each way' : ''}`;
  rates.forEach((r, i) => {
    const flag = [fell, rose].map((v) => v?.perCase[i]).find((c) => c?.dropped);
    if (!flag) return;
    const list = out.caseDrift.get(r.case) ?? [];
    list.push({
      kind: family.kind,
      severity: 'fail',
      baseline: r.base,
      current: r.now,
      message: `${family.label} ${counts(r.base)} → ${counts(r.now)}, p = ${formatP(flag.adjustedP)} (${how})`,
    });
    out.caseDrift.set(r.case, list);
  });
  // One case is its own suite: its case drift says it all.
  if (m < 2) return;
  const verdict = [fell, rose].find((v) => v?.dropped);
  if (!verdict) return;
  const base = sumSamples(rates.map((r) => r.base));
  const now = sumSamples(rates.map((r) => r.now));
  out.suiteDrift.push({
    kind: family.kind,
    severity: 'fail',
    baseline: base,
    current: now,
    message: `suite ${family.label} ${counts(base)} → ${counts(now)} over ${m} repeated tool cases, p = ${formatP(verdict.p)} (${verdict.method}, alpha ${level}${family.both ? ' each way' : ''})`,
  });
}

/**
 * The rate drift of a suite's repeated tool cases against their baselines, adjusted for how
 * many cases the suite has, as pass rates are: the trigger rate (samples that finished with
 * tool calls; a fall or a rise is `tool_trigger_changed`) and the valid-call rate (of those,
 * samples whose calls were all valid; a fall is `tool_call_invalid`). Each is tested over
 * the cases at once, so a provider that misses 1 call in 10 in 20 cases is caught as a suite
 * where no single case shows it, and one that always missed 1 in 10 is not flagged on every
 * other night. Cases answered once on both sides, and counts no test can read, are left out.
 * Pure.
 */
export function toolRateDrift(cases: readonly ToolRateCase[], alpha = DEFAULT_ALPHA): ToolRateAnalysis {
  const triggers: Rate[] = [];
  const valids: Rate[] = [];
  for (const { case: id, baseline: was, current: now } of cases) {
    if (!(was.answered > 0) || !(now.answered > 0) || !repeatedToolUse(was, now)) continue;
    const trigger = {
      case: id,
      base: { pass: was.triggered, total: was.answered },
      now: { pass: now.triggered, total: now.answered },
    };
    if (sane(trigger.base) && sane(trigger.now)) triggers.push(trigger);
    const valid = {
      case: id,
      base: { pass: was.valid, total: was.triggered },
      now: { pass: now.valid, total: now.triggered },
    };
    if (sane(valid.base) && sane(valid.now)) valids.push(valid);
  }
  const out: ToolRateAnalysis = { caseDrift: new Map(), suiteDrift: [] };
  testRate(TRIGGER, triggers, alpha, out);
  testRate(VALID, valids, alpha, out);
  return out;
}
