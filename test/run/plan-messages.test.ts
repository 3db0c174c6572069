import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRecord } from '../../src/stored/journal/records.js';
import { journalMessages } from '../../src/run/plan-messages.js';
import { tableDigest } from '../../src/suite/sources/index.js';
import { pieceHashes } from '../../src/suite/table-reread.js';

// More rows than one piece (256 KB) holds: the table is read a piece at a time.
const ROWS = 12_000;
const rows = (tag: string) =>
  Array.from(
    { length: ROWS },
    (_, i) => `${JSON.stringify({ n: i, text: `${tag} row ${i} of the table` })}\n`,
  ).join('');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-plan-messages-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const planOf = (text: string): PlanRecord => ({
  type: 'plan',
  suite: 'big',
  file: 'big.yaml',
  service: 'router',
  requested_model: 'openai/gpt-4o-mini',
  system: 'Be brief.',
  tables: [
    {
      file: 'rows.jsonl',
      format: 'jsonl',
      rows: ROWS,
      digest: tableDigest([Buffer.from(text)]),
      case: { id: 'r-{{n}}', prompt: 'Say: {{text}}' },
    },
  ],
  cases: [],
});

async function collect(
  messages: AsyncIterable<{ id: string; messages: { content: unknown }[] }> | null,
  each?: (count: number) => Promise<void>,
): Promise<string[]> {
  const out: string[] = [];
  for await (const m of messages!) {
    out.push(m.messages.at(-1)!.content as string);
    await each?.(out.length);
  }
  return out;
}

/** The table of `first` rows written, and its prompts as journalMessages makes them (with the pieces' hashes when `kept`). */
async function firstTable(kept: boolean) {
  const text = rows('first');
  await writeFile(join(dir, 'rows.jsonl'), text);
  const missing: string[] = [];
  const messages = journalMessages(
    dir,
    (_suite, why) => missing.push(why),
    kept ? () => pieceHashes(Buffer.from(text)) : undefined,
  )(planOf(text));
  return { text, messages, missing };
}

describe('journalMessages: a table read again for its prompts, a piece at a time', () => {
  for (const kept of [false, true])
    it(`makes every row's prompt from the unchanged table (${kept ? 'the pieces’ hashes kept' : 'its digest first'})`, async () => {
      const { text, messages, missing } = await firstTable(kept);
      expect(Buffer.byteLength(text)).toBeGreaterThan(2 * 256 * 1024);
      const got = await collect(messages);
      expect(missing).toEqual([]);
      expect(got).toHaveLength(ROWS);
      expect(got[ROWS - 1]).toBe(`Say: first row ${ROWS - 1} of the table`);
    });

  for (const kept of [false, true])
    it(`stops at the first piece that changed while it was read, and says so (${kept ? 'hashes kept' : 'digest first'})`, async () => {
      const { messages, missing } = await firstTable(kept);
      const got = await collect(messages, async (count) => {
        if (count === 1) await writeFile(join(dir, 'rows.jsonl'), rows('other'));
      });
      expect(missing).toEqual(['rows.jsonl changed since the run']);
      // The rows of the first piece, none made from the new bytes.
      expect(got.length).toBeGreaterThan(1);
      expect(got.length).toBeLessThan(ROWS);
      expect(got.filter((prompt) => !prompt.startsWith('Say: first '))).toEqual([]);
    });

  it('says what is wrong with a table that is no longer the one planned', async () => {
    const text = rows('first');
    const plan = planOf(text);
    const why = async () => {
      const missing: string[] = [];
      await collect(journalMessages(dir, (_suite, w) => missing.push(w))(plan));
      return missing;
    };
    expect(await why()).toEqual(['rows.jsonl: no such file or folder']);
    await writeFile(join(dir, 'rows.jsonl'), Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe])]));
    expect(await why()).toEqual(['rows.jsonl: file is not valid UTF-8']);
    await writeFile(join(dir, 'rows.jsonl'), `${text}\u0000`);
    expect(await why()).toEqual(['rows.jsonl: binary file (contains NUL bytes)']);
    await writeFile(join(dir, 'rows.jsonl'), `${text}{"n": 1, "text": "x"}\n`);
    expect(await why()).toEqual(['rows.jsonl changed since the run']);
    expect(createHash('sha256').update(text).digest('hex')).toBe(plan.tables![0]!.digest);
  });
});
