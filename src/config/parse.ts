import type { Config } from './types.js';
import type { Prices } from '../core/catalog.js';
import type { Diagnostic, Validated } from '../util/errors.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { readYamlMapping, type YamlEngine, type YamlMapping } from '../yaml/parse-mapping.js';
import { shippedValidator } from '../yaml/schemas.js';
import { sortDiagnostics } from '../yaml/show.js';
import { explainApiKeyEnv } from './api-key-env.js';
import { buildService, type RawService } from './build.js';
import { configProblems } from './semantics.js';

const explainKeyEnv = (value: string) =>
  explainApiKeyEnv(value) ?? {
    message: 'is not a valid variable name',
    hint: 'e.g. api_key_env: OPENROUTER_API_KEY',
  };

/**
 * Parses and validates `driftcheck.config.yaml` text and fills defaults. Pure: `env` is
 * passed in. `${VAR}` in base_url and header values is expanded; an unset variable is
 * not an error here (see unsetEnv) because only the services a run uses need it.
 */
export function parseConfig(
  text: string,
  file: string,
  env: NodeJS.ProcessEnv,
  yamlEngine?: YamlEngine,
): Validated<Config> {
  return readYamlMapping(
    text,
    file,
    'config',
    "'services:'",
    (yaml) => checkConfig(yaml, file, env),
    yamlEngine,
  );
}

function checkConfig(yaml: YamlMapping, file: string, env: NodeJS.ProcessEnv): Validated<Config> {
  const validate = shippedValidator('config');
  const errors: Diagnostic[] = [];
  if (!validate(yaml.data)) {
    errors.push(
      ...ajvDiagnostics(validate.errors ?? [], yaml, {
        rootName: 'the config',
        patterns: { api_key_env: explainKeyEnv },
      }),
    );
  }
  errors.push(...configProblems(yaml, env));
  if (errors.length > 0) return { errors: sortDiagnostics(errors) };
  const raw = yaml.data.services as Record<string, RawService>;
  const services = Object.fromEntries(
    Object.entries(raw).map(([name, service]) => [name, buildService(name, service, env)]),
  );
  // fromEntries: model ids are user text, and `prices[id] = …` with "__proto__" would not add a key.
  const prices = yaml.data.prices as Prices | undefined;
  const priced = prices === undefined ? {} : { prices: Object.fromEntries(Object.entries(prices)) };
  const history = yaml.data.history as { dir: string } | undefined;
  const maxCost = yaml.data.max_cost as number | undefined;
  return {
    value: {
      file,
      services,
      ...priced,
      ...(maxCost !== undefined ? { max_cost: maxCost } : {}),
      ...(history ? { history: { dir: history.dir } } : {}),
    },
  };
}
