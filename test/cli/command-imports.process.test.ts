import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// Every command's start-up is the modules it loads before its first line of work: a command
// that only reads stored runs must not load the HTTP client (undici: 111 files, ~40 ms of
// `driftcheck report` until the fold reached it through a hint function), and libraries that
// most runs never touch are loaded on first use (src/util/lazy.ts), never on an import line.
// This reads the static imports of the built code — what Node loads for a command, dynamic
// imports aside — from each command's module in dist/cli.

const STATIC = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;

/** The packages a module's static import graph reaches, with the first chain to each. */
function packagesOf(entry: string): Map<string, string[]> {
  const from = new Map<string, string | null>([[entry, null]]);
  const packages = new Map<string, string[]>();
  const chain = (file: string) => {
    const out: string[] = [];
    for (let f: string | null | undefined = file; f; f = from.get(f)) out.unshift(f.slice(REPO.length + 1));
    return out;
  };
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const spec = (match[1] ?? match[2])!;
      if (spec.startsWith('node:')) continue;
      if (!spec.startsWith('.')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, [...chain(file), spec]);
        continue;
      }
      const next = resolve(dirname(file), spec);
      if (from.has(next) || !existsSync(next)) continue;
      from.set(next, file);
      queue.push(next);
    }
  }
  return packages;
}

const command = (name: string) => packagesOf(join(REPO, 'dist/cli', `${name}.js`));

/** Loaded on first use only (src/util/lazy.ts), by every command. */
const LAZY = ['ajv', 'csv-parse', 're2js', 'string-width'];
/** What only a command that sends requests needs. */
const SENDING = ['undici', 'eventsource-parser'];

describe('what each command loads before it starts', () => {
  it.each([
    'validate',
    'list',
    'report',
    'history',
    'diff',
    'merge',
    'recheck',
    'open',
    'init',
    'baseline',
    'compare',
  ])('%s: neither the HTTP client nor a library loaded on first use', (name) => {
    const packages = command(name);
    for (const name of [...SENDING, ...LAZY, 'yaml'])
      expect(packages.get(name), `${name} reached by ${packages.get(name)?.join(' → ')}`).toBeUndefined();
  });

  it.each(['run', 'verify', 'pin', 'sim'])('%s: no library loaded on first use', (name) => {
    const packages = command(name);
    for (const name of LAZY)
      expect(packages.get(name), `${name} reached by ${packages.get(name)?.join(' → ')}`).toBeUndefined();
  });

  it('and the walk sees what a command does load (run reaches the HTTP client)', () => {
    expect(command('run').has('undici')).toBe(true);
    expect(command('validate').has('js-yaml')).toBe(true);
  });
});
