// Issue 19's table row: `driftcheck validate` of one suite whose cases come from a
// 100,000-row JSONL table (every row read, expanded and checked), as a whole process.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { measureNode, median } from './process.mjs';
import { MODEL, writeWorkload } from './workload.mjs';

/**
 * `runs` validations of a suite of `rows` table rows (the bench's prompt and check, from
 * the row). Target: wall ≤ 2 s (median).
 */
export async function measureTableValidate(ctx, { rows = 100000, runs = 3 } = {}) {
  const { config } = await writeWorkload(ctx.dir, 0, ctx.simUrl);
  const suites = join(ctx.dir, 'table-suite');
  await mkdir(join(suites, 'data'), { recursive: true });
  const lines = [];
  for (let n = 1; n <= rows; n++)
    lines.push(JSON.stringify({ n, prompt: `Say exactly: case ${n}`, want: `case ${n}` }));
  await writeFile(join(suites, 'data', 'cases.jsonl'), `${lines.join('\n')}\n`);
  await writeFile(
    join(suites, 'table.yaml'),
    [
      'suite: bench-table',
      'service: router',
      `model: ${MODEL}`,
      'tables:',
      '  - path: data/cases.jsonl',
      '    case:',
      '      id: "case-{{n}}"',
      '      prompt: "{{prompt}}"',
      '      expect:',
      '        - contains: "{{want}}"',
      '',
    ].join('\n'),
  );
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const m = await measureNode([ctx.bin, 'validate', suites, '--config', config], {
      cwd: ctx.dir,
      env: ctx.env,
      tmp: ctx.tmp,
    });
    if (m.code !== 0 || !m.stdout.includes(`${rows.toLocaleString('en-US')} cases`))
      throw new Error(`validate of the table failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
    ctx.log(`validate ${rows} table rows ${(m.wallMs / 1000).toFixed(2)} s  ${m.peakRssMb?.toFixed(0)} MB`);
    samples.push(m);
  }
  const wallMs = median(samples.map((s) => s.wallMs));
  const table = {
    rows,
    wallMs,
    cpuMs: median(samples.map((s) => s.cpuMs ?? NaN)),
    peakRssMb: median(samples.map((s) => s.peakRssMb ?? NaN)),
    samples: samples.map((s) => ({
      wallMs: s.wallMs,
      cpuMs: s.cpuMs,
      peakRssMb: s.peakRssMb,
      load1m: s.load1m,
    })),
  };
  return {
    what: `validate of a ${rows}-row JSONL table`,
    table,
    targets: [{ what: 'validate wall (s)', value: wallMs / 1000, text: '≤ 2 s', met: wallMs <= 2000 }],
  };
}
