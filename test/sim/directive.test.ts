import { describe, expect, it } from 'vitest';
import { readDirective } from '../../src/sim/directive.js';

const msgs = (...contents: string[]) => contents.map((content) => ({ role: 'user', content }));

describe('readDirective', () => {
  it('reads the header JSON', () => {
    const read = readDirective('{"fault":"rate_limited","retry_after_s":2,"fail_times":1}', msgs('hi'));
    expect(read).toEqual({
      ok: true,
      directive: { fault: 'rate_limited', retry_after_s: 2, fail_times: 1 },
      messages: msgs('hi'),
    });
  });

  it('reads in-prompt markers, converts numbers and strips the markers', () => {
    const read = readDirective(undefined, msgs('Say hi [sim:fault=rate_limited,retry_after_s=2]', 'plain'));
    expect(read).toEqual({
      ok: true,
      directive: { fault: 'rate_limited', retry_after_s: 2 },
      messages: msgs('Say hi', 'plain'),
    });
  });

  it('lets the header win over markers', () => {
    const read = readDirective(
      '{"fault":"server_error"}',
      msgs('[sim:fault=empty_choices,delay_ms=5] hello'),
    );
    expect(read.ok && read.directive).toEqual({ fault: 'server_error', delay_ms: 5 });
    expect(read.ok && read.messages[0]!.content).toBe('hello');
  });

  it('reads a rate (tokens_per_s) from the header or a marker, fractions too', () => {
    expect(readDirective('{"tokens_per_s":42.5}', msgs('hi'))).toMatchObject({
      ok: true,
      directive: { tokens_per_s: 42.5 },
    });
    expect(readDirective(undefined, msgs('[sim:tokens_per_s=300] hi'))).toMatchObject({
      ok: true,
      directive: { tokens_per_s: 300 },
    });
  });

  it('returns null when there is nothing to do', () => {
    expect(readDirective(undefined, msgs('hi'))).toEqual({ ok: true, directive: null, messages: msgs('hi') });
    expect(readDirective('  ', msgs('hi'))).toEqual({ ok: true, directive: null, messages: msgs('hi') });
  });

  it.each([
    ['{not json', undefined, /not valid JSON/],
    ['[1]', undefined, /must be a JSON object/],
    ['{"fault":"meltdown"}', undefined, /unknown fault "meltdown"/],
    ['{"fail_times":1.5}', undefined, /fail_times must be a whole number/],
    ['{"delay_ms":-1}', undefined, /delay_ms must be a number/],
    ['{"reply":5}', undefined, /reply must be a string/],
    // Every field is named, in SimDirective's order.
    [
      '{"falut":"auth"}',
      undefined,
      /unknown field "falut"; expected fault, reply, finish_reason, delay_ms, retry_after_s, fail_times, pass_rate, fail_reply, provider, fingerprint, tool_fault, tool_fault_rate, agent_fault, agent_fault_rate, stream_fault, stream_fault_rate, stall_ms or tokens_per_s\.$/,
    ],
    [undefined, '[sim:fault=nope]', /unknown fault "nope"/],
    // Names an object has by inheritance are neither faults nor fields.
    ['{"fault":"toString"}', undefined, /unknown fault "toString"; expected one of auth,/],
    ['{"stream_fault":"constructor"}', undefined, /unknown stream_fault "constructor"/],
    ['{"constructor":5}', undefined, /unknown field "constructor"/],
    [undefined, '[sim:toString=1]', /unknown field "toString"/],
    [undefined, '[sim:retry_after_s=soon]', /retry_after_s must be a number/],
    ['{"tokens_per_s":0}', undefined, /tokens_per_s must be a number above 0, at most 100000/],
    [undefined, '[sim:tokens_per_s=fast]', /tokens_per_s must be a number above 0/],
  ])('rejects header %j / marker %j with a clear message', (header, content, message) => {
    const read = readDirective(header, msgs(content ?? 'hi'));
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.message).toMatch(/^Invalid simulator directive: /);
      expect(read.message).toMatch(message);
    }
  });
});
