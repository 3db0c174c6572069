import type {
  DriftTolerance,
  Message,
  RequestParams,
  SimDirective,
  SourceLocation,
  Suite,
  SuiteCase,
} from '../types.js';
import type { YamlMapping } from '../yaml/parse-mapping.js';
import { toExpectation } from './expectations.js';

interface RawCase {
  id: string;
  prompt?: string;
  messages?: Message[];
  expect?: Record<string, unknown>[];
  repeat?: number | 'auto';
  sim?: SimDirective;
  drift?: DriftTolerance;
}

interface RawSuite {
  suite: string;
  service: string;
  model: string;
  params?: RequestParams;
  system?: string;
  repeat?: number | 'auto';
  drift?: DriftTolerance;
  cases: RawCase[];
}

/**
 * Maps a suite that passed validation onto the shared `Suite` shape: `system` goes in
 * front of every case's messages, `prompt` becomes one user message, and each suite and
 * case records where it was written.
 */
export function buildSuite(yaml: YamlMapping): Suite {
  const raw = yaml.data as unknown as RawSuite;
  const where = (pointer: string): SourceLocation => {
    const at = yaml.locate(pointer);
    return { file: yaml.file, line: at.line, column: at.column };
  };
  const system: Message[] = raw.system === undefined ? [] : [{ role: 'system', content: raw.system }];
  const cases = raw.cases.map((c, i): SuiteCase => {
    const asked: Message[] =
      c.prompt !== undefined ? [{ role: 'user', content: c.prompt }] : (c.messages ?? []);
    return {
      id: c.id,
      // Every field of a message is kept (the schema decides which a suite may write).
      messages: system.concat(asked.map((m): Message => ({ ...m }))),
      expect: (c.expect ?? []).map(toExpectation),
      ...(c.repeat !== undefined ? { repeat: c.repeat } : {}),
      ...(c.sim !== undefined ? { sim: { ...c.sim } } : {}),
      ...(c.drift !== undefined ? { drift: structuredClone(c.drift) } : {}),
      location: where(`/cases/${i}`),
    };
  });
  return {
    suite: raw.suite,
    file: yaml.file,
    service: raw.service,
    model: raw.model,
    params: { ...raw.params },
    ...(raw.repeat !== undefined ? { repeat: raw.repeat } : {}),
    ...(raw.drift !== undefined ? { drift: structuredClone(raw.drift) } : {}),
    cases,
    location: where('/suite'),
    ...(raw.service !== undefined ? { service_location: where('/service') } : {}),
  };
}
