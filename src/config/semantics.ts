import { isAlias } from '../adapters/alias.js';
import { isResponseCacheHeader } from '../adapters/response-cache.js';
import type { Diagnostic } from '../util/errors.js';
import { escapePointer } from '../yaml/locate.js';
import type { YamlMapping } from '../yaml/parse-mapping.js';
import { show } from '../yaml/show.js';
import { explainApiKeyEnv } from './api-key-env.js';
import { explainBaseUrl } from './base-url.js';
import { expandEnv } from './env.js';
import { isRecord } from '../util/is-record.js';

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'api-key',
]);

/**
 * What the config schema cannot say: base URLs that are URLs once `${VAR}`s are
 * expanded, variable names that are not pasted keys, headers that carry no credentials.
 * Reads defensively, since the data may also have failed the schema.
 */
export function configProblems(yaml: YamlMapping, env: NodeJS.ProcessEnv): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const at = (pointer: string, key: boolean, message: string, hint: string): void => {
    problems.push({
      file: yaml.file,
      ...yaml.locate(pointer, { key }),
      message,
      hint,
    });
  };
  const prices = yaml.data.prices;
  // Costs are looked up by the model that answered, which is never an alias: such a price never applies.
  for (const model of isRecord(prices) ? Object.keys(prices) : []) {
    if (!isAlias(model)) continue;
    at(
      `/prices/${escapePointer(model)}`,
      true,
      `price for ${show(model)}: an alias never answers a request, so this price would never be used`,
      'key prices by the concrete model id that answers (reports show it as model), e.g. anthropic/claude-opus-4.5',
    );
  }
  const services = yaml.data.services;
  if (!isRecord(services)) return problems;
  for (const [name, service] of Object.entries(services)) {
    if (!isRecord(service)) continue;
    const here = `/services/${escapePointer(name)}`;
    const { api_key_env: keyEnv, base_url: baseUrl, headers } = service;
    // Names failing the schema's pattern are explained there; this catches key-shaped names that pass it.
    if (typeof keyEnv === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) {
      const problem = explainApiKeyEnv(keyEnv);
      if (problem)
        at(`${here}/api_key_env`, false, `'services.${name}.api_key_env' ${problem.message}`, problem.hint);
    }
    if (typeof baseUrl === 'string' && baseUrl !== '') {
      const expanded = expandEnv(baseUrl, env);
      // An unset variable is not an error here: pre-flight reports it when the service is used.
      const problem = expanded.missing.length === 0 ? explainBaseUrl(expanded.value) : null;
      if (problem) {
        const via = expanded.value === baseUrl ? '' : ` (after expanding ${show(baseUrl)})`;
        at(`${here}/base_url`, false, `${problem.message}${via}`, problem.hint);
      }
    }
    if (isRecord(headers)) {
      const cacheAllowed = Array.isArray(service.allow) && service.allow.includes('response_cache');
      for (const header of Object.keys(headers)) {
        // Never dropped silently: a configured cache opt-in is refused, or sent as the service allows.
        if (isResponseCacheHeader(header) && !cacheAllowed)
          at(
            `${here}/headers/${escapePointer(header)}`,
            true,
            `header '${header}' asks the router for its response cache: a hit returns an earlier answer verbatim (every billable usage counter 0), so a regression run would compare the baseline with a stored answer, not the model's`,
            `remove it; to send it anyway, add 'allow: [response_cache]' to services.${name}`,
          );
        if (!CREDENTIAL_HEADERS.has(header.toLowerCase())) continue;
        at(
          `${here}/headers/${escapePointer(header)}`,
          true,
          `header '${header}' would carry a credential; headers here are for attribution only`,
          'remove it: the key is read from the variable named by api_key_env and sent as Authorization: Bearer',
        );
      }
    }
  }
  return problems;
}
