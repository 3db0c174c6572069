import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { unsetEnv } from '../../src/config/env.js';
import { DEFAULT_CONFIG_FILE, loadConfig } from '../../src/config/load.js';
import { InputError } from '../../src/util/errors.js';

const config = (url: string) =>
  `services:\n  mine:\n    kind: direct\n    base_url: ${url}\n    api_key_env: MINE_KEY\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('defaultConfig', () => {
  it('has a router service at OpenRouter and a direct service from DIRECT_BASE_URL', () => {
    const config = defaultConfig({ DIRECT_BASE_URL: 'https://api.moonshot.ai/v1' });
    expect(config.file).toBeNull();
    expect(config.services.router).toMatchObject({
      name: 'router',
      kind: 'router',
      base_url: 'https://openrouter.ai/api/v1',
      api_key_env: 'OPENROUTER_API_KEY',
      max_tokens: 512,
      timeout_s: 60,
      retries: 2,
      concurrency: 8,
      headers: {},
    });
    expect(config.services.direct).toMatchObject({
      kind: 'direct',
      base_url: 'https://api.moonshot.ai/v1',
      api_key_env: 'DIRECT_API_KEY',
      max_tokens: 1024,
    });
  });

  it("leaves direct's base_url empty when DIRECT_BASE_URL is unset, and says so", () => {
    const direct = defaultConfig({}).services.direct;
    expect(direct?.base_url).toBe('');
    expect(direct && unsetEnv(direct)).toEqual(['DIRECT_BASE_URL']);
  });
});

describe('loadConfig', () => {
  it('uses the defaults when no file is named and none is in cwd', async () => {
    expect(await loadConfig(undefined, {}, dir)).toEqual(defaultConfig({}));
  });

  it(`picks up ${DEFAULT_CONFIG_FILE} from cwd`, async () => {
    await writeFile(join(dir, DEFAULT_CONFIG_FILE), config('https://example.com/v1'));
    const loaded = await loadConfig(undefined, {}, dir);
    expect(loaded.file).toBe(DEFAULT_CONFIG_FILE);
    expect(Object.keys(loaded.services)).toEqual(['mine']);
  });

  it('reads a named file relative to cwd and expands env', async () => {
    await writeFile(join(dir, 'ci.yaml'), config('${HOST}/v1'));
    const loaded = await loadConfig('ci.yaml', { HOST: 'https://h.example' }, dir);
    expect(loaded.services.mine?.base_url).toBe('https://h.example/v1');
  });

  it.each([
    ['a missing named file', 'absent.yaml', null, 'no such file or folder'],
    ['a broken file', 'bad.yaml', config('http://example.com/v1'), 'plain http:// is refused'],
    ['a binary file', 'bin.yaml', '\u0000\u0001', 'binary file'],
  ])('throws InputError for %s', async (_what, name, content, message) => {
    if (content !== null) await writeFile(join(dir, name), content);
    const error = await loadConfig(name, {}, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    const [d] = (error as InputError).diagnostics;
    expect(d?.file).toBe(name);
    expect(d?.message).toContain(message);
  });
});
