// Child of the readers row (bench/yaml-readers.mjs): reads the config and loads every suite of
// a bench workload as `driftcheck validate` does (cases checked, none kept), with one YAML
// engine: `auto` (js-yaml's fast path first) or `full` (`yaml` alone). Prints "<n> cases".
// Usage: node bench/yaml-readers-child.mjs ROOT auto|full DIR
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const [root, engine, dir] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(join(root, 'dist', file)).href);
const { parseConfig } = await load('config/parse.js');
const { loadSuites } = await load('suite/load.js');

const configFile = join(dir, 'driftcheck.config.yaml');
const config = parseConfig(await readFile(configFile, 'utf8'), configFile, process.env, engine);
if (config.errors) throw new Error(JSON.stringify(config.errors));
const suites = await loadSuites([join(dir, 'suites')], { cwd: dir, yamlEngine: engine, cases: 'checked' });
process.stdout.write(`${suites.reduce((n, s) => n + s.counts.cases, 0)} cases\n`);
