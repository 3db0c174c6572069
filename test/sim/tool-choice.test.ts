import { describe, expect, it } from 'vitest';
import { chooseTools, TOOL_RELEVANCE, toolScore } from '../../src/sim/tool-choice.js';
import { NO_TOOLS, type SimTool, type ToolChoice, type ToolRequest } from '../../src/sim/tool-request.js';

const tool = (name: string, description = ''): SimTool => ({
  name,
  description,
  parameters: {},
  strict: false,
});
const WEATHER = tool('get_weather', 'Current weather conditions for a city');
const DOCS = tool('searchDocs', 'Search the product documentation');
const REFUND = tool('issue_refund', 'Refund an order to the customer');
const TOOLS = [WEATHER, DOCS, REFUND];

const request = (toolChoice: ToolChoice = 'auto', parallel = true, tools = TOOLS): ToolRequest => ({
  ...NO_TOOLS,
  tools,
  toolChoice,
  parallel,
  carries: ['tools'],
});
const names = (chosen: SimTool[]) => chosen.map((t) => t.name);

describe('which tools the simulated model calls (the stated rules)', () => {
  it('scores 2 per word of the name (camelCase and snake_case split), 1 per word of the description', () => {
    expect(toolScore(WEATHER, 'Is the weather nice?')).toBe(2);
    expect(toolScore(DOCS, 'Search the documentation')).toBe(3); // "search" in the name, "documentation" in the description
    expect(toolScore(REFUND, 'the customer wants an order refunded')).toBe(4); // refund(ed) ~ name; customer, order ~ description
    expect(toolScore(WEATHER, 'Tell me a joke')).toBe(0);
    expect(TOOL_RELEVANCE).toBe(2);
  });

  it.each<[string, string, ToolChoice, boolean, string[]]>([
    ['auto: the relevant tool', 'What is the weather in Paris?', 'auto', true, ['get_weather']],
    ['auto: nothing relevant → a text answer', 'Tell me a joke', 'auto', true, []],
    ['auto: one description word is not enough', 'Any conditions?', 'auto', true, []],
    [
      'auto: several relevant tools, best first',
      'Refund the order and check the weather',
      'auto',
      true,
      ['issue_refund', 'get_weather'],
    ],
    [
      'parallel_tool_calls false: only the best',
      'Refund the order and check the weather',
      'auto',
      false,
      ['issue_refund'],
    ],
    ['required: the relevant one', 'weather please', 'required', true, ['get_weather']],
    [
      'required with nothing relevant: the first declared',
      'Tell me a joke',
      'required',
      true,
      ['get_weather'],
    ],
    [
      'named: that tool, whatever the prompt',
      'What is the weather?',
      { name: 'searchDocs' },
      true,
      ['searchDocs'],
    ],
    ['none: no call even when asked', 'What is the weather?', 'none', true, []],
  ])('%s', (_rule, prompt, choice, parallel, expected) => {
    expect(names(chooseTools(request(choice, parallel), prompt, false))).toEqual(expected);
  });

  it('after tool results, auto answers in text; required and named still call', () => {
    const prompt = 'What is the weather in Paris?';
    expect(chooseTools(request('auto'), prompt, true)).toEqual([]);
    expect(names(chooseTools(request('required'), prompt, true))).toEqual(['get_weather']);
    expect(names(chooseTools(request({ name: 'issue_refund' }), prompt, true))).toEqual(['issue_refund']);
  });

  it('ties keep the declaration order', () => {
    const a = tool('lookup_order');
    const b = tool('order_lookup');
    expect(names(chooseTools(request('auto', true, [b, a]), 'lookup the order', false))).toEqual([
      'order_lookup',
      'lookup_order',
    ]);
  });
});
