import { extname } from 'node:path';
import { csv } from './csv.js';
import { jsonl } from './jsonl.js';
import { createHash } from 'node:crypto';
import { type TableBytes, type TableFormat, withoutBom } from './types.js';

/**
 * Every table format, by the name a suite's `format:` uses. A new format is one module
 * here; the suite schema's `format` enum is generated from these keys (npm run schemas).
 */
export const TABLE_FORMATS = { jsonl, csv } satisfies Record<string, TableFormat>;

export type TableFormatName = keyof typeof TABLE_FORMATS;

/** Every file ending a table format is known by (`.jsonl, .ndjson, .csv`), as messages list them. */
export const TABLE_EXTENSIONS = Object.values(TABLE_FORMATS)
  .flatMap((f) => f.extensions)
  .join(', ');

/** What a table file should be, named where a folder was given. */
export const TABLE_FILE = `a table file (${TABLE_EXTENSIONS})`;

/** The format a table is read with: its `format:`, else the one its file name ends with; null when neither says. */
export function formatOf(path: string, declared: string | undefined): TableFormatName | null {
  if (declared !== undefined) return declared in TABLE_FORMATS ? (declared as TableFormatName) : null;
  const ending = extname(path).toLowerCase();
  const names = Object.keys(TABLE_FORMATS) as TableFormatName[];
  return names.find((name) => TABLE_FORMATS[name].extensions.includes(ending)) ?? null;
}

/**
 * The sha256 a plan record keeps of a table: of its text without a byte-order mark (the
 * text as decoded, which journals of version 4 and 5 hashed).
 */
export function tableDigest(bytes: TableBytes): string {
  const hash = createHash('sha256');
  for (const piece of withoutBom(bytes)) hash.update(piece);
  return hash.digest('hex');
}
