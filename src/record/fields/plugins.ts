import type { DetailRow, RecordedField } from '../field.js';
import { firstValue } from '../folds.js';
import { intern } from '../../util/intern.js';
import { isRecord } from '../../util/is-record.js';

/** The router's plugin that repairs malformed JSON in a non-streamed answer (its plugins guide). */
const RESPONSE_HEALING = 'response-healing';

/** The report's row: the plugins, and what response healing hides, marked. */
function pluginsRow(value: unknown): DetailRow {
  const ids = Array.isArray(value) ? value.map(String) : [];
  if (ids.length === 0) return { term: 'plugins', text: null };
  const healing = ids.includes(RESPONSE_HEALING);
  return {
    term: 'plugins',
    text: `${ids.join(', ')}${healing ? ' (repairs malformed JSON before checks see it: a structured-output regression may not show)' : ''}`,
    ...(healing ? { mark: 'warn' as const } : {}),
  };
}

/**
 * The `plugins` a request was sent with (the router's, by `id`), read from the parameters as
 * sent: they change what comes back — response healing repairs JSON, so an answer checked
 * with it says little of the model's own structured output. Kept on each sample and the case
 * entry, and named in the case's details.
 */
export const plugins = {
  schema: { type: 'array', items: { type: 'string' } },
  extract: ({ params }) => {
    const list = params?.plugins;
    if (!Array.isArray(list)) return null;
    const ids = list.flatMap((p) => (isRecord(p) && typeof p.id === 'string' ? [intern(p.id)] : []));
    return ids.length > 0 ? ids : null;
  },
  case: { plugins: firstValue<string[]>() },
  detail: { at: 'served', rows: (c) => [pluginsRow(c.plugins)] },
} satisfies RecordedField<string[]>;
