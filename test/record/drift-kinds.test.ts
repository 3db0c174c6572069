import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DRIFT_KINDS, DRIFT_SEVERITY, severityOf } from '../../src/record/drift-kinds.js';
import { RECORDED } from '../../src/record/registry.js';
import type { DriftKindRow } from '../../src/record/severity.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** README's list of drift kinds: each kind with what its parentheses say. */
function readmeKinds(): Map<string, string> {
  const paragraph = README.split('**Drift kinds**:')[1]!.split('\n\n')[0]!.replace(/\s+/g, ' ');
  return new Map([...paragraph.matchAll(/`([a-z_]+)` \(([^()]*)\)/g)].map((m) => [m[1]!, m[2]!]));
}

/** How README says each of a row's other weights: the weight, and words that name when it applies. */
const SAID: Record<Exclude<keyof DriftKindRow, 'severity'>, RegExp> = {
  candidate: /candidate/,
  beyond: /below/,
  better: /faster/,
};

describe('the table of drift kinds (src/record/drift-kinds.ts)', () => {
  it('is every kind the report schema lists, the recorded fields’ own rows included', () => {
    expect(Object.keys(DRIFT_SEVERITY)).toEqual(DRIFT_KINDS);
    for (const field of Object.values(RECORDED))
      if ('drift' in field)
        for (const [kind, row] of Object.entries(field.drift.kinds))
          expect(DRIFT_SEVERITY[kind as keyof typeof DRIFT_SEVERITY]).toBe(row);
  });

  it('weighs a drift by its row and what was found', () => {
    expect(severityOf('provider_changed')).toBe('fail');
    expect(severityOf('provider_changed', { candidate: true })).toBe('info');
    expect(severityOf('content_changed')).toBe('info');
    expect(severityOf('content_changed', { beyond: true })).toBe('warn');
    expect(severityOf('latency_changed', { better: true })).toBe('info');
    expect(severityOf('latency_changed', { candidate: true })).toBe('info');
    expect(severityOf('latency_changed')).toBe('warn');
    // A row without the circumstance keeps its own weight.
    expect(severityOf('regressed', { candidate: true, beyond: true, better: true })).toBe('fail');
  });

  it('reads as README’s list of drift kinds says: every kind once, each weighing what README says', () => {
    const said = readmeKinds();
    expect([...said.keys()].sort()).toEqual([...DRIFT_KINDS].sort());
    for (const kind of DRIFT_KINDS) {
      const row = DRIFT_SEVERITY[kind];
      const text = said.get(kind)!;
      expect(text.match(/^(fail|warn|info)\b/)?.[1], `${kind}: README says "(${text})"`).toBe(row.severity);
      for (const [key, words] of Object.entries(SAID) as [keyof typeof SAID, RegExp][]) {
        const other = row[key];
        if (other === undefined) continue;
        expect(text, `${kind}: README says when it weighs ${other} (${key})`).toMatch(words);
        expect(text, `${kind}: README names its ${key} weight`).toContain(other);
      }
    }
  });
});
