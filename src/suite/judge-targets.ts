import type { Suite } from './types.js';
/** Every (service, model) a suite's judges call, for pre-flight (keys, clients) before the first request. */
export function judgeTargets(
  suite: Pick<Suite, 'service' | 'cases' | 'judges'>,
): { service: string; model: string }[] {
  const seen = new Map<string, { service: string; model: string }>();
  // A suite loaded without its cases names its judges itself.
  const judges =
    suite.judges ??
    suite.cases.flatMap((c) => c.expect.flatMap((e) => (e.type === 'judge' ? [e.value] : [])));
  for (const judge of judges) {
    const target = { service: judge.service ?? suite.service, model: judge.model };
    seen.set(`${target.service}\n${target.model}`, target);
  }
  return [...seen.values()];
}
