import type { CaseMessages } from '../fold/fold.js';
import type { SuiteCase } from '../types.js';

/** A suite's cases as the fold takes their messages back (cases planned as table rows). */
export async function* caseMessages(
  cases: AsyncIterable<SuiteCase> | Iterable<SuiteCase>,
): AsyncGenerator<CaseMessages> {
  for await (const c of cases) yield { id: c.id, messages: c.messages };
}
