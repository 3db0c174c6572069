// The issue's targets (issue 5, item 2), checked against the medians, and the printed table.

/** Rows of the throughput table: one per (size, latency) with its target, if the issue set one. */
export function throughputTarget(row) {
  // Issue 37: reading streams costs no more than the network.
  if (row.stream)
    return row.latencyMs > 0 && row.size === 1000
      ? { text: 'wall ≤ 1.1× undici (same streams)', met: row.ratio !== null && row.ratio <= 1.1 }
      : null;
  if (row.latencyMs === 0 && row.size === 20000)
    return { text: 'wall ≤ 2× undici', met: row.ratio !== null && row.ratio <= 2 };
  if (row.latencyMs > 0 && row.size === 1000)
    return { text: 'wall ≤ 1.05× undici', met: row.ratio !== null && row.ratio <= 1.05 };
  return null;
}

/** Peak-memory targets: < 150 MB at 20,000 cases; ≤ 200 MB at 100,000, first run or with baselines (issue 12). */
export function memoryTarget(row) {
  // A streamed row's memory is held to its own figure (streamMemoryTargets), not these.
  if (row.latencyMs !== 0 || row.stream) return null;
  if (row.size === 20000 && !row.baselines)
    return { text: 'RSS < 150 MB', met: row.driftcheck.peakRssMb !== null && row.driftcheck.peakRssMb < 150 };
  if (row.size === 100000)
    return {
      text: 'RSS ≤ 200 MB',
      met: row.driftcheck.peakRssMb !== null && row.driftcheck.peakRssMb <= 200,
    };
  return null;
}

/** Most a streamed run's peak RSS may exceed a plain run's of the same cases: streams keep nothing per case. */
const STREAM_MEMORY_LIMIT = 1.1;

/**
 * Issue 37's memory figure against its target: at each size, `run --stream`'s peak RSS within
 * STREAM_MEMORY_LIMIT of a plain run's of the same cases (median against median), i.e. memory
 * grows with the cases no more than a plain run's does.
 */
export function streamMemoryTargets(m) {
  const ratio = m.plain.peakRssMb ? m.streamed.peakRssMb / m.plain.peakRssMb : null;
  return [
    {
      what: `${m.size} cases: run --stream peak RSS / run's`,
      value: ratio,
      text: `≤ ${STREAM_MEMORY_LIMIT}×`,
      met: ratio !== null && ratio <= STREAM_MEMORY_LIMIT,
    },
  ];
}

/**
 * The streamed memory rows: each size's streamed and plain peak RSS (median, [range]), against
 * the streamed throughput rows' figure at the same latency (no target: shown beside), and the target.
 */
export function renderStreamMemory(list, rows) {
  const body = [];
  const range = (s) =>
    s.samples.length > 1
      ? ` [${fmt(Math.min(...s.samples.map((x) => x.peakRssMb)))}–${fmt(s.peakRssMaxMb)}]`
      : '';
  for (const m of list) {
    const smaller = rows.filter((r) => r.stream && r.size < m.size && r.latencyMs === m.latencyMs);
    for (const r of smaller)
      body.push([
        `${r.size} cases (the streamed row)`,
        `run --stream ${fmt(r.driftcheck.peakRssMb)} MB${range(r.driftcheck)}`,
        '',
        '',
      ]);
    const growth = smaller.map(
      (r) => `, ${fmt(m.streamed.peakRssMb / r.driftcheck.peakRssMb, 2)}× the ${r.size}-case figure`,
    );
    body.push([
      `${m.size} cases, ${m.latencyMs ? `${m.latencyMs} ms` : 'instant'}`,
      `run --stream ${fmt(m.streamed.peakRssMb)} MB${range(m.streamed)}${growth.join('')}; run ${fmt(m.plain.peakRssMb)} MB${range(m.plain)}`,
      '',
      '',
    ]);
    for (const t of streamMemoryTargets(m)) body.push([`  ${t.what}`, fmt(t.value, 2), t.text, mark(t.met)]);
  }
  return grid(['streamed peak RSS (median)', 'measured', 'target', 'met?'], body);
}

/** The scale rows (bench/scale.mjs): each measured figure against its target. */
export function renderScale(scaleRows) {
  const body = [];
  for (const row of scaleRows) {
    if (row.low) {
      for (const r of [row.low, row.high]) {
        body.push([
          `${row.what}: --repeat ${r.repeat}`,
          `RSS ${fmt(r.peakRssMb)} MB, report.json ${fmt(r.reportJsonMb, 1)} MB, report.html ${fmt(r.reportHtmlMb, 1)} MB, ${fmt(r.wallMs / 1000, 1)} s`,
          '',
          '',
        ]);
      }
    }
    if (row.reports) {
      const r = row.reports;
      body.push([
        row.what,
        `report.html ${fmt(r.reportHtmlMb, 1)} MB (interactive ${fmt(r.interactiveMs)} ms), report.json ${fmt(r.reportJsonMb, 1)} MB, results.jsonl ${fmt(r.journalMb, 1)} MB, junit.xml ${fmt(r.junitMb, 1)} MB; run ${fmt(r.wallMs / 1000, 1)} s, RSS ${fmt(r.peakRssMb)} MB`,
        '',
        '',
      ]);
    }
    if (row.memory) {
      for (const r of row.memory) {
        const parts = ['validate', 'first', 'baselines']
          .filter((k) => r[k])
          .map((k) => {
            const range = r[k].peakRssRangeMb;
            const spread = range ? ` [${fmt(range[0])}–${fmt(range[1])}]` : '';
            return `${k} ${fmt(r[k].peakRssMb)} MB${spread} (${fmt(r[k].wallMs / 1000, 1)} s)`;
          });
        body.push([`${r.size} ${r.source} cases`, parts.join(', '), '', '']);
      }
    }
    if (row.table) {
      const r = row.table;
      body.push([
        row.what,
        `validate ${fmt(r.wallMs / 1000, 2)} s (CPU ${fmt(r.cpuMs / 1000, 2)} s), RSS ${fmt(r.peakRssMb)} MB`,
        '',
        '',
      ]);
    }
    if (row.merge) {
      body.push([
        row.what,
        `RSS ${fmt(row.merge.peakRssMb)} MB, ${fmt(row.merge.wallMs / 1000, 1)} s, report.json ${fmt(row.merge.reportJsonMb, 1)} MB`,
        '',
        '',
      ]);
    }
    if (row.compare) {
      const r = row.compare;
      body.push([
        row.what,
        `run --models RSS ${fmt(r.models.peakRssMb)} MB (${fmt(r.models.wallMs / 1000, 1)} s); compare RSS ${fmt(r.compare.peakRssMb)} MB (${fmt(r.compare.wallMs / 1000, 1)} s); compare.json ${fmt(r.compareJsonMb, 1)} MB, compare.html ${fmt(r.compareHtmlMb, 1)} MB (usable ${fmt(r.interactiveMs)} ms)`,
        '',
        '',
      ]);
    }
    if (row.recheck) {
      const shown = (r) =>
        `${fmt(r.wallMs / 1000, 1)} s (CPU ${fmt(r.cpuMs / 1000, 1)} s), RSS ${fmt(r.peakRssMb)} MB`;
      body.push([
        row.what,
        `report ${shown(row.recheck.report)}; recheck ${shown(row.recheck.recheck)}`,
        '',
        '',
      ]);
    }
    if (row.readers) {
      const shown = (r) =>
        `${fmt(r.wallMs / 1000, 2)} s, CPU ${fmt(r.cpuMs / 1000, 2)} s, RSS ${fmt(r.peakRssMb)} MB`;
      for (const r of row.readers)
        body.push([
          `${r.size} written cases read`,
          `js-yaml first ${shown(r.fast)}; \`yaml\` alone ${shown(r.yamlAlone)}`,
          '',
          '',
        ]);
    }
    for (const t of row.targets) body.push([`  ${t.what}`, fmt(t.value, 2), t.text, mark(t.met)]);
  }
  return grid(['scale row', 'measured', 'target', 'met?'], body);
}

/**
 * Start-up targets: `--version` within 1.2× `node -e 0` and under 150 ms; `validate`, `list`
 * and `report` of the demo within 2× (issue 36); a 10-case `run --sim` under 1 s.
 */
export function startupTargets(startup) {
  if (!startup) return [];
  const bare = startup.nodeBare.medianMs;
  const within = (what, summary, times) => ({
    what,
    medianMs: summary.medianMs,
    text: `≤ ${times}× node -e 0 (is ${(summary.medianMs / bare).toFixed(2)}×)`,
    met: summary.medianMs <= times * bare,
  });
  return [
    { what: 'node -e 0 (reference)', medianMs: bare, text: '', met: null },
    {
      what: 'driftcheck --version',
      medianMs: startup.version.medianMs,
      text: '< 150 ms',
      met: startup.version.medianMs < 150,
    },
    within('driftcheck --version', startup.version, 1.2),
    ...(startup.validate
      ? [
          within('validate suites/demo', startup.validate, 2),
          ...(startup.validateCold ? [within('validate, no verdicts kept', startup.validateCold, 2)] : []),
          within('list suites/demo', startup.list, 2),
          within("report of the demo's run", startup.report, 2),
        ]
      : []),
    {
      what: '10-case run --sim',
      medianMs: startup.sim10.medianMs,
      text: '< 1000 ms',
      met: startup.sim10.medianMs < 1000,
    },
  ];
}

const fmt = (n, digits = 0) => (n === null || n === undefined ? '—' : n.toFixed(digits));
const mark = (met) => (met === null || met === undefined ? '' : met ? 'yes' : 'NO');

/** Plain-text table of the medians, one line per row, widths fitted to the content. */
export function renderTable(rows, startup) {
  const head = [
    'cases',
    'latency',
    'conc',
    'undici s',
    'driftcheck s',
    'ratio',
    'dc cases/s',
    'undici RSS MB',
    'dc RSS MB',
    'dc CPU s',
    'dc tail ms',
    'undici tail ms',
    'target',
    'met?',
  ];
  const body = [];
  for (const row of rows) {
    const targets = [throughputTarget(row), memoryTarget(row)].filter(Boolean);
    body.push([
      String(row.size),
      `${row.latencyMs ? `${row.latencyMs} ms` : 'instant'}${row.stream ? ', streamed' : ''}${row.baselines ? ', baselines' : ''}`,
      String(row.concurrency),
      fmt(row.undici.wallMs / 1000, 2),
      fmt(row.driftcheck.wallMs / 1000, 2),
      fmt(row.ratio, 2),
      fmt(row.casesPerSecond),
      fmt(row.undici.peakRssMb),
      fmt(row.driftcheck.peakRssMb),
      fmt(row.driftcheck.cpuMs === null ? null : row.driftcheck.cpuMs / 1000, 2),
      // Issue 36: from the simulator's last reply to the client's exit (folding, reports).
      fmt(row.driftcheck.tailMs ?? null),
      fmt(row.undici.tailMs ?? null),
      targets.map((t) => t.text).join('; '),
      targets.map((t) => mark(t.met)).join('; '),
    ]);
  }
  const lines = [grid(head, body)];
  const startupRows = startupTargets(startup);
  if (startupRows.length) {
    lines.push(
      grid(
        ['start-up (median)', 'ms', 'target', 'met?'],
        startupRows.map((t) => [t.what, fmt(t.medianMs), t.text, mark(t.met)]),
      ),
    );
  }
  return lines.join('\n\n');
}

function grid(head, body) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
