import type { Reporter } from '../fold/reporter.js';

/**
 * What a reporter is made from: where files go and how to print. Nothing is scrubbed here:
 * every answer was redacted as the service client read it.
 */
export interface ReporterContext {
  dir: string;
  /** Where the console reporter prints. */
  write: (text: string) => void;
  color: boolean;
  columns?: number;
}

/**
 * Every reporter, by the name `--reporter` takes: the one registry the CLI, its help and its
 * validation, the library's default set, README and action.yml read (test/report/reporter-names.cli.test.ts
 * holds the last two to it). Each is loaded only when asked for. Adding a reporter is one
 * module in `report/` and one line here.
 */
export const REPORTERS = {
  console: async (c: ReporterContext): Promise<Reporter> =>
    (await import('./console.js')).consoleReporter(c.write, {
      color: c.color,
      ...(c.columns ? { columns: c.columns } : {}),
    }),
  json: async (c: ReporterContext): Promise<Reporter> => (await import('./json.js')).jsonReporter(c.dir),
  html: async (c: ReporterContext): Promise<Reporter> =>
    (await import('./html/render.js')).htmlReporter(c.dir),
  junit: async (c: ReporterContext): Promise<Reporter> => (await import('./junit.js')).junitReporter(c.dir),
  markdown: async (c: ReporterContext): Promise<Reporter> =>
    (await import('./markdown.js')).markdownReporter(c.dir),
} as const;

export type ReporterName = keyof typeof REPORTERS;
/** The reporters' names, in registry order: what `--help`, its validation, README and action.yml list. */
export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];

/**
 * The reporters a library run (`runSuites`) writes when it is given none: every one but
 * `console`, which prints to the terminal — the files of the run folder.
 */
export const FILE_REPORTERS: ReadonlySet<ReporterName> = new Set(
  REPORTER_NAMES.filter((name) => name !== 'console'),
);

/**
 * The reporters for a set of names. report.json is always written: `--resume`, `diff`,
 * `merge`, `baseline accept` and the history read it.
 */
export async function createReporters(
  names: ReadonlySet<string>,
  context: ReporterContext,
): Promise<Reporter[]> {
  const wanted = new Set([...names, 'json']);
  const reporters: Reporter[] = [];
  for (const name of REPORTER_NAMES) if (wanted.has(name)) reporters.push(await REPORTERS[name](context));
  return reporters;
}
