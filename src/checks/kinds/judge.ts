import { judgeProblems } from '../judge-problems.js';
import type { JudgeSpec } from '../judge.js';
import type { CheckDefinition } from '../registry.js';

/**
 * `judge`: a pinned model asked whether the answer meets a rubric or says the same as the
 * baseline. It calls a service, so the runner evaluates it (runJudge), not `run`.
 */
export const judge: CheckDefinition<JudgeSpec> = {
  schema: {
    type: 'object',
    title: 'Judged by a model',
    description:
      'A pinned judge model decides whether the answer meets a rubric and/or is equivalent to the baseline answer; its verdict, concrete model and usage are recorded with the check. Give rubric, equivalent_to_baseline: true, or both. It is sent temperature 0 and a 200-token cap unless its params replace them.',
    additionalProperties: false,
    required: ['model'],
    properties: {
      model: {
        type: 'string',
        minLength: 1,
        title: 'Judge model',
        description:
          "A concrete model id on the judge's service, e.g. openai/gpt-4o-mini. ~author/family-latest aliases are refused unless --allow-alias: a moving judge makes verdicts incomparable.",
        examples: ['openai/gpt-4o-mini'],
      },
      service: {
        type: 'string',
        minLength: 1,
        title: 'Judge service',
        description:
          "Name of the service under services: that runs the judge (default: the suite's service).",
      },
      rubric: {
        type: 'string',
        minLength: 1,
        title: 'Rubric',
        description:
          'What the answer must do, in plain words. Quote exact phrases, e.g. \'must mention "30 days"\'.',
        examples: ['must mention "30 days" and the receipt'],
      },
      params: {
        $ref: '#/definitions/params',
      },
      equivalent_to_baseline: {
        type: 'boolean',
        title: 'Equivalent to the baseline answer',
        description:
          "true: the answer must convey the same facts, values and conclusions as the baseline's answer; wording may differ. Passes (skipped) while the case has no baseline answer yet.",
      },
    },
  },
  parse: (value) => ({ ...(value as JudgeSpec) }),
  usesBaseline: (spec) => spec.equivalent_to_baseline === true,
  problems: (value, where, options) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? judgeProblems(value as Record<string, unknown>, where, options)
      : [],
};
