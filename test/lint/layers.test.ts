import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
// @ts-expect-error: a plain ES module of the lint config, without types
import { LAYERS } from '../../scripts/layers.mjs';

const layers = LAYERS as { paths: string[]; says: string }[];

describe('the layers of src/', () => {
  it('place every folder and file of src/ in one layer', async () => {
    const entries = await readdir(join(REPO, 'src'));
    const placed = layers.flatMap((l) => l.paths);
    expect(new Set(placed).size).toBe(placed.length);
    expect([...entries].sort()).toEqual([...placed].sort());
  });

  it('are drawn in ARCHITECTURE.md, top layer first, as scripts/layers.mjs lists them', async () => {
    const text = await readFile(join(REPO, 'ARCHITECTURE.md'), 'utf8');
    const drawing = /```\n([\s\S]*?)```/.exec(text)![1]!;
    const drawn = drawing
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/)[0]!.trim());
    const listed = layers
      .map((l) => l.paths.map((p) => (p.endsWith('.ts') ? p : `${p}/`)).join(' '))
      .reverse()
      .filter((l) => l !== 'index.ts');
    expect(drawn).toEqual(listed);
  });

  it('fail npm run lint on an import that points up, runtime or type, and pass one that points down', async () => {
    const eslint = new ESLint({ cwd: REPO });
    const lint = async (file: string, code: string) =>
      (await eslint.lintText(code, { filePath: join(REPO, file) }))[0]!.messages.filter(
        (m) => m.ruleId === 'layers/imports-point-down',
      );
    const up = await lint(
      'src/stored/x.ts',
      "import { RunFold } from '../fold/fold.js';\nexport const f = RunFold;\n",
    );
    expect(up.map((m) => m.message)).toEqual([
      expect.stringMatching(
        /^stored may not import fold \(\.\.\/fold\/fold\.js\): imports point down the layers/,
      ),
    ]);
    const typeUp = await lint(
      'src/checks/x.ts',
      "import type { Suite } from '../suite/types.js';\nexport type S = Suite;\n",
    );
    expect(typeUp).toHaveLength(1);
    const dynamicUp = await lint('src/util/x.ts', "export const load = () => import('../cli/main.js');\n");
    expect(dynamicUp).toHaveLength(1);
    const down = await lint(
      'src/fold/x.ts',
      "import { EXIT } from '../util/exit-codes.js';\nexport const e = EXIT;\n",
    );
    expect(down).toEqual([]);
    const unplaced = await lint('src/newfolder/x.ts', 'export const y = 1;\n');
    expect(unplaced.map((m) => m.message)).toEqual([expect.stringMatching(/is in no layer/)]);
  });
});
