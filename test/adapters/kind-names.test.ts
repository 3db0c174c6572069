import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceKinds } from '../../src/adapters/index.js';
import { REPO } from '../helpers/cli.js';

// The adapter registry (ADAPTERS) is the one list of service kinds: README's config
// reference names each kind a config may say, and no other.
describe('README names the service kinds of the adapter registry', () => {
  it('lists every kind, in the registry’s order, where it documents a service’s `kind`', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const said = [...readme.matchAll(/Per service: `kind` \(([a-z_| ]+)\)/g)].map((m) => m[1]!.split(' | '));
    expect(said).toEqual([serviceKinds()]);
  });
});
