import { ADAPTERS, serviceKinds } from '../adapters/index.js';
import type { JsonSchema } from '../record/field.js';

type ServiceSchema = {
  description: string;
  properties: { kind: { enum: string[]; description: string }; max_tokens: { description: string } };
};

/** `a`, `a or b`, `a, b or c`. */
function either(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/**
 * schemas/config.schema.json from its hand-written part and the adapter registry: a service's
 * `kind` enum, what each kind stands for and its default max_tokens. `npm run build` writes
 * it, so a kind added to `ADAPTERS` is a kind a config may name at once. Pure.
 */
export function configSchema(template: unknown): JsonSchema {
  const schema = structuredClone(template) as { definitions: { service: ServiceSchema } };
  const service = schema.definitions.service;
  const kinds = serviceKinds().map((kind) => ({ kind, ...ADAPTERS[kind] }));
  service.description = `One chat-completion service. kind picks its semantics: ${either(
    kinds.map((k) => `${k.kind} (${k.schema.is})`),
  )}.`;
  service.properties.kind.enum = kinds.map((k) => k.kind);
  service.properties.kind.description = `${kinds.map((k) => `${k.kind}: ${k.schema.semantics}`).join('; ')}.`;
  service.properties.max_tokens.description = `Sent (named as max_tokens_param says) when a suite's params set neither max_tokens nor max_completion_tokens (default ${kinds
    .map((k) => `${k.defaults.max_tokens} for ${k.kind}`)
    .join(', ')}).`;
  return schema as JsonSchema;
}
