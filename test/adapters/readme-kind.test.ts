import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// README's "Adding a service kind" names real files, and its adapter passes Prettier and
// lint as the file it says to write (a scratch branch built and ran it; this keeps it so).
const README = await readFile(join(REPO, 'README.md'), 'utf8');
const section = README.split('### Adding a service kind\n')[1]!.split('\n### ')[0]!;
const [, path, code] = /Write\s+`([^`]+)`:\s*```ts\n([\s\S]*?)```/.exec(section)!;

describe("README's Adding a service kind", () => {
  it('writes an adapter that Prettier and ESLint accept as the file it names', async () => {
    expect(path).toMatch(/^src\/adapters\/[a-z-]+\.ts$/);
    const file = join(REPO, path!);
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    expect(await prettier.format(code!, options)).toBe(code);
    const [lint] = await new ESLint({ cwd: REPO }).lintText(code!, { filePath: file });
    expect(lint!.messages).toEqual([]);
  });

  it('names the registry and the answers table as they are', async () => {
    expect(section).toContain('`ADAPTERS` (`src/adapters/index.ts`)');
    expect(await readFile(join(REPO, 'src/adapters/index.ts'), 'utf8')).toContain(
      'export const ADAPTERS = {',
    );
    expect(section).toContain('`ANSWERS` (`test/adapters/questions.test.ts`');
    expect(await readFile(join(REPO, 'test/adapters/questions.test.ts'), 'utf8')).toMatch(
      /const ANSWERS: Record<\s*ServiceKind,/,
    );
    // Every field the snippet sets is one ServiceAdapter declares, and it sets every required one.
    const types = await readFile(join(REPO, 'src/adapters/types.ts'), 'utf8');
    const declared = types.split('export interface ServiceAdapter {')[1]!;
    const required = [...declared.matchAll(/^ {2}([a-z_]+):/gm)].map((m) => m[1]);
    const set = [...code!.matchAll(/^ {2}([a-z_]+):/gm)].map((m) => m[1]);
    expect(set.sort()).toEqual(required.sort());
  });
});
