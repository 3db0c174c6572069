import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// npm's own range logic (semver is in the tree through npm-using tools such as eslint): the
// same rule `npm ci` applies when it warns EBADENGINE.
const semver = createRequire(join(REPO, 'package.json'))('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

describe('the lock file installs quietly on the Node the README names', () => {
  it('every locked package, dev ones included, accepts the oldest Node driftcheck supports', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } };
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => typeof p.engines?.node === 'string' && !semver.satisfies(oldest, p.engines.node))
      .map(([name, p]) => `${name} (node ${p.engines!.node})`);
    expect(refusing).toEqual([]);
  });
});
