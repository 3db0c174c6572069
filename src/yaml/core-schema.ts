import { FAILSAFE_SCHEMA, type Schema, Type } from 'js-yaml';

/**
 * js-yaml's schema with the YAML 1.2 core schema's plain-scalar rules, built with its
 * public custom-type API. js-yaml's own CORE_SCHEMA types more than YAML 1.2 core does
 * (`0b101`, `1_000` as numbers, `+.5` as text), and the `yaml` package — the full path,
 * whose answers are the reference — follows YAML 1.2 core; this keeps the two readers'
 * data the same. Quoted scalars are never resolved, in either.
 */
const scalar = (tag: string, test: RegExp, construct: (text: string) => unknown): Type =>
  new Type(`tag:yaml.org,2002:${tag}`, {
    kind: 'scalar',
    resolve: (text: string | null) => test.test(text ?? ''),
    construct: (text: string | null) => construct(text ?? ''),
  });

const nullType = scalar('null', /^(?:~|[Nn]ull|NULL)?$/, () => null);
const boolType = scalar('bool', /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (t) => /^[Tt]/.test(t));
const intType = scalar('int', /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/, (t) =>
  t.startsWith('0o')
    ? parseInt(t.slice(2), 8)
    : t.startsWith('0x')
      ? parseInt(t.slice(2), 16)
      : parseInt(t, 10),
);
const floatType = scalar(
  'float',
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  (t) =>
    /inf|Inf|INF/.test(t)
      ? t.startsWith('-')
        ? -Infinity
        : Infinity
      : /nan|NaN|NAN/.test(t)
        ? NaN
        : Number(t),
);

export const YAML_CORE_SCHEMA: Schema = FAILSAFE_SCHEMA.extend({
  implicit: [nullType, boolType, intType, floatType],
});
