// The layers of src/, bottom first: a module may import its own layer and the layers below
// it, never one above (ARCHITECTURE.md draws them). `npm run lint` holds it with the rule
// below, for runtime and type imports alike: a type that points up ties the layers as
// surely as a call does.
import { dirname, relative, resolve, sep } from 'node:path';

/** Each layer: its folders (or files) under src/, and what it is for. */
export const LAYERS = [
  {
    paths: ['util', 'stats'],
    says: 'no knowledge of the domain: files, bounded reads, text, numbers, statistics',
  },
  { paths: ['yaml'], says: 'reading YAML and JSON text with positions and readable diagnostics' },
  {
    paths: ['core'],
    says: 'the words every stage shares: messages, answers, errors, stops, cost, tool calls',
  },
  { paths: ['adapters'], says: 'what each kind of service is: defaults, keys, parameters, aliases, errors' },
  { paths: ['record'], says: 'what is recorded of an answer, one module a field, and how it drifts' },
  { paths: ['checks'], says: 'what can be checked of an answer, one module a check type' },
  { paths: ['suite'], says: 'suites and case tables: read, then parsed and validated' },
  { paths: ['config'], says: 'driftcheck.config.yaml: read, then parsed and validated' },
  { paths: ['service'], says: 'the edge: transport, retries, redaction, bounds, classification' },
  { paths: ['stored'], says: 'every on-disk format: journal, report.json lines, baselines, history lines' },
  {
    paths: ['run'],
    says: 'plan and execute: samples sent, checked and journaled; a recheck of stored answers',
  },
  { paths: ['fold'], says: 'journal records into one read-only result per case, suite and run' },
  { paths: ['report'], says: 'render one run: console, report.json, HTML, JUnit, Markdown' },
  { paths: ['compare'], says: 'render runs side by side: candidates, their verdicts and tallies' },
  { paths: ['history', 'baseline'], says: 'render the nights; accept a run as the baseline' },
  { paths: ['sim'], says: 'the embedded simulator of both services' },
  { paths: ['cli'], says: 'flags into one request, and the composition roots of each command' },
  { paths: ['index.ts'], says: 'the library entry: re-exports only' },
];

const SRC = resolve(dirname(new URL(import.meta.url).pathname), '..', 'src');

/** The layer of a file under src/ (its index in LAYERS), or -1 for one outside src/, or null for an unplaced one. */
export function layerOf(file) {
  const rel = relative(SRC, file);
  if (rel.startsWith('..')) return -1;
  const top = rel.split(sep)[0];
  const at = LAYERS.findIndex((layer) => layer.paths.includes(top));
  return at >= 0 ? at : null;
}

const name = (at) => LAYERS[at].paths.join('/');

/** ESLint rule: an import in src/ points to its own layer or one below. */
export const importsPointDown = {
  meta: {
    type: 'problem',
    docs: { description: 'imports in src/ point down the layers of scripts/layers.mjs' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const own = layerOf(file);
    if (own === -1) return {};
    if (own === null)
      return {
        Program: (node) =>
          context.report({
            node,
            message: `${relative(SRC, file)} is in no layer: add its folder to LAYERS in scripts/layers.mjs (and ARCHITECTURE.md)`,
          }),
      };
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = layerOf(resolve(dirname(file), source));
      if (target === null || target === -1 || target <= own) return;
      context.report({
        node,
        message: `${name(own)} may not import ${name(target)} (${source}): imports point down the layers (ARCHITECTURE.md); move what both need down, or pass it in`,
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
