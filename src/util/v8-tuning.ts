import v8 from 'node:v8';

/** The young generation's cap: two semi-spaces of 4 MB (V8's default grows them to 16 MB each). */
const YOUNG_GENERATION_BYTES = 8 * 2 ** 20;

/**
 * V8 settings for `driftcheck run`, which the CLI applies (the library never changes a
 * host process's engine). Measured with `npm run bench` on 20,000 instant cases (2 cores):
 * together they take peak RSS from 150–200 MB to 117–129 MB, with 4–6 % less CPU.
 *
 * - WebAssembly stays on V8's baseline compiler (`--liftoff-only`). undici's HTTP parser
 *   is WebAssembly, and V8's optimising tier compiled it again in the background during
 *   the first seconds of a run: about 25 MB of transient native memory, the run's peak
 *   RSS, for no speed that shows at hosted-service request rates.
 * - The young generation stops growing at 8 MB. A run's allocations are per-request
 *   garbage that dies young, or results that live to the end; a larger nursery (V8 grows
 *   it to 32 MB) only adds resident memory. Node cannot change the nursery's maximum
 *   after start-up, so it is grown to the cap at once and growth switched off.
 * - Young-generation collections run on the main thread alone (`--no-parallel-scavenge`).
 *   With a nursery this small, handing each collection to helper threads cost more CPU
 *   than it saved on a machine whose other core is busy with the service's side of the
 *   connection (the simulator, in the benchmark): 4–6 % less CPU and wall time at 20,000
 *   cases.
 *
 * Each is left alone when the user passed V8 flags of that kind (node's own flags or
 * NODE_OPTIONS): theirs win. Must run before the first request (the parser is compiled on
 * first use) and before suites are read.
 */
export function tuneV8ForRun(execArgv: readonly string[] = process.execArgv, env = process.env): void {
  const given = flagsGiven(execArgv, env);
  if (!/liftoff|wasm-tier|wasm-dynamic-tiering/.test(given)) v8.setFlagsFromString('--liftoff-only');
  if (!/semi-space|young-generation/.test(given)) capYoungGeneration();
  if (!/scavenge/.test(given)) v8.setFlagsFromString('--no-parallel-scavenge');
}

/** Suite text from which a run counts as large: about 40,000 cases written like the benchmark's. */
export const LARGE_RUN_CHARS = 4 * 2 ** 20;

/**
 * For a large run (`chars` of suite text, known before any is parsed): the old generation
 * may grow by 40 % of what a full collection left alive before the next one, not by V8's
 * own factor, which reaches 4× on a machine with memory to spare. A large run keeps every
 * case and result to the end, so the old generation holds over 100 MB, and four times
 * that is what made its peak RSS. Measured with the benchmark's 100,000 cases, runs
 * alternating with V8's own factor: peak RSS 239–241 against 267–284 MB, for about 5 %
 * more CPU. Below the threshold it is left alone: at 20,000 cases it saved 5 MB for
 * 7–8 % more CPU. A `--heap-growing-percent` of the user's wins. Returns whether it applied.
 */
export function tuneV8ForLargeRun(
  chars: number,
  execArgv: readonly string[] = process.execArgv,
  env = process.env,
): boolean {
  if (chars < LARGE_RUN_CHARS || /heap-growing/.test(flagsGiven(execArgv, env))) return false;
  v8.setFlagsFromString('--heap-growing-percent=40');
  return true;
}

/**
 * Grows the nursery to the cap now, then switches growth off. V8 grows it only in a
 * collection that finds much of it still alive, and Node gives no way to set its size
 * after start-up; so a few short-lived chunks are kept alive until it has grown (9 ms
 * measured when `run` starts, at most 32 MB allocated). Waiting for the run's own collections instead
 * lets it grow two or three steps at once inside a long synchronous stretch (the first
 * suite file, compiled cold), past the cap.
 */
function capYoungGeneration(): void {
  const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size;
  const keep: unknown[][] = [];
  for (let i = 0; i < 64 && (size() ?? YOUNG_GENERATION_BYTES) < YOUNG_GENERATION_BYTES; i++) {
    const chunk: unknown[] = [];
    for (let j = 0; j < 16_384; j++) chunk.push({ j });
    keep.push(chunk);
  }
  keep.length = 0;
  // Not reached (another V8 may grow differently): leave V8's own growth alone.
  if ((size() ?? 0) >= YOUNG_GENERATION_BYTES) v8.setFlagsFromString('--semi-space-growth-factor=1');
}

/** The node and V8 flags the user passed: on the command line, or in NODE_OPTIONS. */
function flagsGiven(execArgv: readonly string[], env: NodeJS.ProcessEnv): string {
  return `${execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`;
}
