import { counts } from '../core/words.js';
import { formatP } from '../stats/format-p.js';
import { DEFAULT_ALPHA, holmAdjust, type Samples, suiteVerdict, sumSamples } from '../stats/index.js';
import type { FieldDrift } from './served-change.js';
import { TOOL_DRIFT_KINDS } from './tool-drift-kinds.js';
import type { ToolUse } from './tool-use.js';

type RateKind = 'tool_trigger_changed' | 'tool_call_invalid';
type ToolRateDrift = FieldDrift<RateKind>;

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

/** How one rate is named in drift: its kind and its label in messages. */
interface Family {
  kind: RateKind;
  label: string;
}

const TRIGGER: Family = { kind: 'tool_trigger_changed', label: 'tool-call rate' };
const VALID: Family = { kind: 'tool_call_invalid', label: 'valid-call rate' };

function flagCase(family: Family, r: Rate, p: number, how: string, out: ToolRateAnalysis): void {
  const list = out.caseDrift.get(r.case) ?? [];
  list.push({
    kind: family.kind,
    severity: TOOL_DRIFT_KINDS[family.kind].severity,
    baseline: r.base,
    current: r.now,
    message: `${family.label} ${counts(r.base)} → ${counts(r.now)}, p = ${formatP(p)} (${how})`,
  });
  out.caseDrift.set(r.case, list);
}

function flagSuite(
  family: Family,
  rates: readonly Rate[],
  p: number,
  how: string,
  out: ToolRateAnalysis,
): void {
  const base = sumSamples(rates.map((r) => r.base));
  const now = sumSamples(rates.map((r) => r.now));
  out.suiteDrift.push({
    kind: family.kind,
    severity: TOOL_DRIFT_KINDS[family.kind].severity,
    baseline: base,
    current: now,
    message: `suite ${family.label} ${counts(base)} → ${counts(now)} over ${rates.length} repeated tool cases, p = ${formatP(p)} (${how})`,
  });
}

const pairs = (rates: readonly Rate[], swap: boolean) =>
  rates.map((r) => (swap ? { baseline: r.now, current: r.base } : { baseline: r.base, current: r.now }));

/**
 * A rate that only matters when it falls (the valid-call rate), by the pass rates' suite
 * decision (`suiteVerdict`: the exact stratified test over every case, per-case flags only
 * when it rejects and the case's Holm-adjusted p ≤ alpha), so a standing rate flags
 * something on at most `alpha` of the nights whatever the suite's size.
 */
function testFall(family: Family, rates: readonly Rate[], alpha: number, out: ToolRateAnalysis): void {
  if (rates.length === 0) return;
  const verdict = suiteVerdict(pairs(rates, false), { alpha });
  const m = rates.length;
  const how = `${m > 1 ? `Holm-adjusted over ${m} repeated tool cases, ` : ''}alpha ${alpha}`;
  rates.forEach((r, i) => {
    if (verdict.perCase[i]!.dropped) flagCase(family, r, verdict.perCase[i]!.adjustedP, how, out);
  });
  // One case is its own suite: its case drift says it all.
  if (m > 1 && verdict.dropped) flagSuite(family, rates, verdict.p, `${verdict.method}, alpha ${alpha}`, out);
}

/**
 * A rate that may move either way (the trigger rate). A pooled test gating the case flags
 * would be blind here: one case that stopped calling and one that started cancel in the
 * pooled sum. So the level is split: the stratified test of a fall and of a rise over the
 * suite, each at alpha/4 (the suite finding), and the cases' one-sided tests both ways,
 * Holm-adjusted together, at alpha/2 (the case flags) — a standing rate still flags
 * something on at most `alpha` of the nights. A single case is tested at alpha/2 each way.
 */
function testMove(family: Family, rates: readonly Rate[], alpha: number, out: ToolRateAnalysis): void {
  const m = rates.length;
  if (m === 0) return;
  const pooled = alpha / 4;
  const fell = suiteVerdict(pairs(rates, false), { alpha: pooled });
  const rose = suiteVerdict(pairs(rates, true), { alpha: pooled });
  const raw = [...fell.perCase, ...rose.perCase].map((c) => c.p);
  // One case is its own suite: its two one-sided tests at alpha/2 each, as a pooled test would be.
  const adjusted = m === 1 ? raw : holmAdjust(raw);
  const level = alpha / 2;
  const how =
    m === 1
      ? `alpha ${level} each way`
      : `Holm-adjusted over both ways of ${m} repeated tool cases, alpha ${level}`;
  rates.forEach((r, i) => {
    const p = Math.min(adjusted[i]!, adjusted[m + i]!);
    if (p <= level) flagCase(family, r, p, how, out);
  });
  if (m < 2) return;
  const verdict = [fell, rose].find((v) => v.dropped);
  if (verdict)
    flagSuite(
      family,
      rates,
      verdict.p,
      `stratified exact one-sided (Cochran–Mantel–Haenszel), alpha ${pooled} each way`,
      out,
    );
}

/**
 * The rate drift of a suite's repeated tool cases against their baselines, adjusted for how
 * many cases the suite has: the valid-call rate (of the samples that called a tool, those
 * whose calls were all valid; a fall is `tool_call_invalid`) as pass rates are judged
 * (`testFall`), and the trigger rate (samples that finished with tool calls; a fall or a
 * rise is `tool_trigger_changed`) with the level split between the suite's test and the
 * cases' (`testMove`). Each is tested over the cases at once, so a provider that misses 1
 * call in 10 in 20 cases is caught as a suite where no single case shows it, and one that
 * always missed 1 in 10 is not flagged on every other night. Cases answered once on both
 * sides, and counts no test can read, are left out. Pure.
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
  testMove(TRIGGER, triggers, alpha, out);
  testFall(VALID, valids, alpha, out);
  return out;
}
