import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOLERANCE,
  mergeTolerance,
  overlayTolerance,
  tolerancesOf,
} from '../../../src/fold/drift/tolerance.js';
import type { DriftTolerance, Suite } from '../../../src/suite/types.js';

describe('mergeTolerance', () => {
  it('is the defaults without layers', () => {
    expect(mergeTolerance()).toEqual(DEFAULT_TOLERANCE);
    expect(DEFAULT_TOLERANCE.usage).toEqual({ completion_tokens: 0.25, total_tokens: 0.25, cost: 0.25 });
  });

  it.each<
    [
      string,
      (DriftTolerance | undefined)[],
      Partial<ReturnType<typeof mergeTolerance>['content']>,
      Partial<ReturnType<typeof mergeTolerance>['usage']>,
    ]
  >([
    ['suite sets, case absent', [{ content: { similarity: 0.8 } }, undefined], { similarity: 0.8 }, {}],
    [
      'case overrides suite field by field',
      [{ content: { similarity: 0.8, json: true } }, { content: { similarity: 0.5 } }],
      { similarity: 0.5, json: true },
      {},
    ],
    [
      'a case normalize list replaces the suite list',
      [{ content: { normalize: ['whitespace', 'case'] } }, { content: { normalize: ['punctuation'] } }],
      { normalize: ['punctuation'] },
      {},
    ],
    [
      'an empty case list switches normalisation off',
      [{ content: { normalize: ['case'] } }, { content: { normalize: [] } }],
      { normalize: [] },
      {},
    ],
    [
      'usage fields layer independently',
      [{ usage: { cost: 0.1 } }, { usage: { completion_tokens: 0.5 } }],
      {},
      { cost: 0.1, completion_tokens: 0.5, total_tokens: 0.25 },
    ],
    [
      'undefined fields never erase',
      [{ usage: { cost: 0.1 } }, { usage: { cost: undefined } }],
      {},
      { cost: 0.1 },
    ],
  ])('%s', (_name, layers, content, usage) => {
    const merged = mergeTolerance(...layers);
    expect(merged.content).toMatchObject(content);
    expect(merged.usage).toMatchObject(usage);
  });

  it('does not share the defaults object', () => {
    const merged = mergeTolerance({ content: { normalize: ['case'] } });
    merged.content.normalize.push('whitespace');
    expect(DEFAULT_TOLERANCE.content.normalize).toEqual([]);
  });

  it('overlayTolerance keeps only what was set', () => {
    expect(overlayTolerance(undefined, {})).toEqual({});
    expect(overlayTolerance({ usage: { cost: 1 } }, { content: { json: false } })).toEqual({
      usage: { cost: 1 },
      content: { json: false },
    });
  });
});

describe('tolerancesOf', () => {
  it('collects the suite tolerance and case overrides by id', () => {
    const suite = {
      drift: { usage: { cost: 0.5 } },
      cases: [{ id: 'a', drift: { content: { json: true } } }, { id: 'b' }],
    } as unknown as Pick<Suite, 'drift' | 'cases'>;
    const t = tolerancesOf(suite);
    expect(t.suite).toEqual({ usage: { cost: 0.5 } });
    expect([...t.cases]).toEqual([['a', { content: { json: true } }]]);
  });
});
