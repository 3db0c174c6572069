import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/adapters/index.js';
import { REPO } from '../helpers/cli.js';
// @ts-expect-error: a plain ES module of the lint config, without types
import { kindNames } from '../../scripts/kind-branches.mjs';

// A service kind is an adapter that describes its service: outside src/adapters/ and the
// simulator, `npm run lint` refuses a branch on a kind's name (eslint.config.js,
// scripts/kind-branches.mjs), so a new kind is never quietly taken for another.

const eslint = new ESLint({ cwd: REPO });
const refusals = async (file: string, code: string) =>
  (await eslint.lintText(code, { filePath: join(REPO, file) }))[0]!.messages
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);

describe('no branch on a service kind outside the adapters', () => {
  it('reads every kind of the registry', () => {
    expect(kindNames()).toEqual(Object.keys(ADAPTERS));
  });

  it.each(Object.keys(ADAPTERS))(
    'refuses comparing with %s, switching on it, or a table by kind',
    async (kind) => {
      const code = [
        "import type { ServiceKind } from '../config/types.js';",
        `export const a = (s: { kind: string }) => s.kind === '${kind}';`,
        `export const b = (s: { kind: string }) => '${kind}' !== s.kind;`,
        `export const c = (k: string) => { switch (k) { case '${kind}': return 1; } return 0; };`,
        'export const d: Partial<Record<ServiceKind, number>> = {};',
        '',
      ].join('\n');
      const said = await refusals('src/cli/x.ts', code);
      expect(said).toEqual([
        expect.stringMatching(/^compares with a service kind's name: ask the kind's adapter/),
        expect.stringMatching(/^compares with a service kind's name/),
        expect.stringMatching(/^switches on a service kind's name/),
        expect.stringMatching(/^a table by service kind belongs in the adapters/),
      ]);
      // The adapters and the simulator's flavours may.
      expect(await refusals('src/adapters/x.ts', code)).toEqual([]);
      expect(await refusals('src/sim/x.ts', code)).toEqual([]);
    },
  );

  it('the files that compared kind names now ask the adapter', async () => {
    const files = [
      'src/cli/alias-catalog.ts',
      'src/cli/candidates.ts',
      'src/cli/cost-cap.ts',
      'src/cli/pin.ts',
      'src/cli/sim-setup.ts',
      'src/cli/verify.ts',
      'src/run/candidate-fit.ts',
    ];
    const results = await eslint.lintFiles(files.map((f) => join(REPO, f)));
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}: ${m.message}`))).toEqual([]);
  });
});
