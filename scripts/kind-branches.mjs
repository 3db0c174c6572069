// A service kind is an adapter that describes its service (src/adapters/): outside the
// adapters and the simulator nothing asks "is this a router?", it asks the adapter. This
// lists what `npm run lint` refuses elsewhere in src/ (eslint.config.js): a comparison or a
// `case` with a kind's name, and a table keyed by ServiceKind. The names are read from the
// registry's source, so a kind added to ADAPTERS is covered without a list to keep in step.
import { readFileSync } from 'node:fs';

const INDEX = new URL('../src/adapters/index.ts', import.meta.url);

/** The keys of `export const ADAPTERS = { router, direct, … }` in src/adapters/index.ts. */
export function kindNames() {
  const body = /export const ADAPTERS = \{([^}]*)\}/.exec(readFileSync(INDEX, 'utf8'))?.[1];
  if (body === undefined) throw new Error('src/adapters/index.ts: no `export const ADAPTERS = { … }` found');
  return body
    .split(',')
    .map((entry) =>
      entry
        .split(':')[0]
        .trim()
        .replace(/^['"]|['"]$/g, ''),
    )
    .filter(Boolean);
}

const ASK =
  "ask the kind's adapter instead (adapterOf(service): aliases, routing, catalog, modelIds, verify, simulator; src/adapters/types.ts), so a new kind is never taken for another";

/** `no-restricted-syntax` entries for src/ outside src/adapters/ and src/sim/. */
export function kindBranchRules() {
  const names = kindNames().join('|');
  return [
    {
      selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(${names})$/]`,
      message: `compares with a service kind's name: ${ASK}`,
    },
    {
      selector: `SwitchCase > Literal.test[value=/^(${names})$/]`,
      message: `switches on a service kind's name: ${ASK}`,
    },
    {
      selector:
        "TSTypeReference[typeName.name='Record'] > TSTypeParameterInstantiation > TSTypeReference:first-child[typeName.name='ServiceKind']",
      message: `a table by service kind belongs in the adapters: ${ASK}`,
    },
  ];
}
