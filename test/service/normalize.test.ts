import { describe, expect, it } from 'vitest';
import { normalizeCompletion } from '../../src/service/normalize.js';
import type { ErrorKind } from '../../src/core/answer.js';
import { okBody } from './helpers.js';
import { RECORDED } from '../../src/record/registry.js';

const MODEL = 'openai/gpt-4o-mini';
const choice = (message: unknown, finish_reason: unknown = 'stop', extra: Record<string, unknown> = {}) => ({
  index: 0,
  message,
  finish_reason,
  ...extra,
});

describe('normalizeCompletion', () => {
  it('reads a normal answer with usage and cost', () => {
    const body = okBody('Thirty days.', {
      usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12, cost: 0.00042 },
    });
    expect(normalizeCompletion('router', body, MODEL)).toEqual({
      completion: {
        id: 'gen-1',
        model: 'openai/gpt-4o-mini-2024-07-18',
        content: 'Thirty days.',
        finish_reason: 'stop',
        usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12, cost: 0.00042 },
        // A body that says nothing of what served it: every recorded field (src/record/fields/) null.
        ...Object.fromEntries(Object.keys(RECORDED).map((name) => [name, null])),
      },
      error: null,
    });
  });

  it('records what served the answer: provider, fingerprint, native finish reason, reasoning and cached tokens', () => {
    const body = {
      ...okBody('Thirty days.', {
        usage: {
          prompt_tokens: 9,
          completion_tokens: 30,
          total_tokens: 39,
          prompt_tokens_details: { cached_tokens: 4 },
          completion_tokens_details: { reasoning_tokens: 27 },
        },
      }),
      provider: 'Together',
      system_fingerprint: 'fp_0042',
    };
    ((body as Record<string, unknown>).choices as Record<string, unknown>[])[0]!.native_finish_reason = 'eos';
    const { completion, error } = normalizeCompletion('router', body, MODEL);
    expect(error).toBeNull();
    expect(completion).toMatchObject({
      provider: 'Together',
      system_fingerprint: 'fp_0042',
      native_finish_reason: 'eos',
      reasoning_tokens: 27,
      cached_tokens: 4,
    });
  });

  it('keeps a refusal as its own outcome, with its text (not "no content")', () => {
    const body = okBody('');
    const message = (body.choices as { message: Record<string, unknown> }[])[0]!.message;
    message.content = null;
    message.refusal = "I can't help with that request.";
    const { completion, error } = normalizeCompletion('direct', body, MODEL);
    expect(error).toMatchObject({ kind: 'refusal', message: "I can't help with that request." });
    expect(completion.refusal).toBe("I can't help with that request.");
  });

  it('names a content filter stop as such', () => {
    const body = okBody('');
    (body.choices as Record<string, unknown>[])[0]!.finish_reason = 'content_filter';
    const { error } = normalizeCompletion('router', body, MODEL);
    expect(error?.kind).toBe('content_filter');
    expect(error?.message).toMatch(/content filter/);
  });

  it('leaves usage null when absent rather than inventing zeros', () => {
    const { completion, error } = normalizeCompletion('direct', { ...okBody('Hi'), usage: undefined }, MODEL);
    expect(error).toBeNull();
    expect(completion.usage).toBeNull();
  });

  type Row = [name: string, body: unknown, kind: ErrorKind, extra?: Record<string, unknown>];
  const rows: Row[] = [
    [
      'error object beside valid choices (read first)',
      okBody('ignored', {
        error: { code: 502, message: 'Upstream died', metadata: { error_type: 'provider_unavailable' } },
      }),
      'body_error',
      { type: 'provider_unavailable', code: '502' },
    ],
    ['choices missing', { id: 'gen-2', model: MODEL }, 'bad_response'],
    ['choices null', { id: 'gen-2', choices: null }, 'bad_response'],
    ['choices not an array', { choices: { 0: {} } }, 'bad_response'],
    [
      'choices empty',
      { id: 'gen-3', model: MODEL, choices: [], usage: { prompt_tokens: 5 } },
      'empty_choices',
    ],
    [
      'choice.error with partial content',
      {
        choices: [
          choice({ role: 'assistant', content: 'Part' }, 'error', {
            error: { code: 429, message: 'Rate limited upstream' },
          }),
        ],
      },
      'body_error',
      { code: '429' },
    ],
    [
      'finish_reason error',
      { choices: [choice({ role: 'assistant', content: 'Part' }, 'error')] },
      'body_error',
    ],
    ['message missing', { choices: [{ index: 0, finish_reason: 'stop' }] }, 'bad_response'],
    [
      'content null, no tool calls',
      { choices: [choice({ role: 'assistant', content: null })] },
      'empty_content',
    ],
    ['content empty', { choices: [choice({ role: 'assistant', content: '' })] }, 'empty_content'],
    ['content whitespace', { choices: [choice({ role: 'assistant', content: ' \n\t ' })] }, 'empty_content'],
    ['body is an array', [1, 2], 'bad_response'],
    ['body is a string', 'hello', 'bad_response'],
  ];

  it.each(rows)('%s → %s', (_name, body, kind, extra) => {
    const { error } = normalizeCompletion('router', body, MODEL);
    expect(error?.kind).toBe(kind);
    expect(error?.http_status).toBe(200);
    if (extra) expect(error).toMatchObject(extra);
  });

  it('keeps what it could read when the content is empty', () => {
    const body = {
      id: 'gen-4',
      model: 'moonshot-v1-8k',
      choices: [choice({ role: 'assistant', content: '' }, 'length')],
      usage: { prompt_tokens: 20, completion_tokens: 1024, total_tokens: 1044 },
    };
    const { completion, error } = normalizeCompletion('direct', body, 'moonshot-v1-8k');
    expect(error?.kind).toBe('empty_content');
    expect(error?.message).toContain('length');
    expect(completion).toMatchObject({
      id: 'gen-4',
      finish_reason: 'length',
      usage: { completion_tokens: 1024 },
    });
  });

  it('a reasoning model cut off before any content (length, reasoning tokens or text) is reasoning_exhausted, naming the cap it was sent', () => {
    const cut = (message: Record<string, unknown>, details?: unknown) => ({
      model: 'o4-mini',
      choices: [choice({ role: 'assistant', content: '', ...message }, 'length')],
      usage: {
        prompt_tokens: 20,
        completion_tokens: 512,
        total_tokens: 532,
        ...(details ? { completion_tokens_details: details } : {}),
      },
    });
    const sent = normalizeCompletion('direct', cut({}, { reasoning_tokens: 512 }), 'o4-mini', 200, {
      max_completion_tokens: 512,
    });
    expect(sent.error).toMatchObject({
      kind: 'reasoning_exhausted',
      message: 'reasoning used all 512 tokens: raise max_completion_tokens',
    });
    expect(sent.completion.reasoning_tokens).toBe(512);
    const text = normalizeCompletion('router', cut({ reasoning: 'Let me think' }), 'x/y', 200, {
      max_tokens: 512,
    });
    expect(text.error?.message).toBe('reasoning used all 512 tokens: raise max_tokens');
    // No evidence of reasoning (0 reasoning tokens, no text): an empty answer it stays.
    expect(normalizeCompletion('direct', cut({}, { reasoning_tokens: 0 }), 'o4-mini').error?.kind).toBe(
      'empty_content',
    );
    // Cut off after some content is an answer, not an error.
    const some = cut({ content: '2 +' }, { reasoning_tokens: 500 });
    expect(normalizeCompletion('direct', some, 'o4-mini').error).toBeNull();
  });

  it('reports the body model on a body error, else the requested one', () => {
    expect(normalizeCompletion('router', { choices: [] }, MODEL).error?.model).toBe(MODEL);
    expect(normalizeCompletion('router', { model: 'x/y-1', choices: [] }, MODEL).error?.model).toBe('x/y-1');
  });

  it('accepts content parts and tool calls without a false empty_content', () => {
    const parts = {
      choices: [
        choice({
          role: 'assistant',
          content: [
            { type: 'text', text: 'A' },
            { type: 'text', text: 'B' },
          ],
        }),
      ],
    };
    expect(normalizeCompletion('direct', parts, MODEL)).toMatchObject({
      completion: { content: 'AB' },
      error: null,
    });
    const tools = {
      choices: [
        choice(
          { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function' }] },
          'tool_calls',
        ),
      ],
    };
    expect(normalizeCompletion('direct', tools, MODEL)).toMatchObject({
      completion: { content: '' },
      error: null,
    });
  });
});
