import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that readers (and a crash at any moment) see either the old content
 * or the new one, never half of it: write a sibling temp file, fsync it, rename it over.
 */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, data, { flush: true });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Like writeFileAtomic, for output too large to hold as one string: `produce` yields the
 * file's text in pieces, encoded straight into one reused 1 MiB buffer and written as it
 * fills. (Concatenating the pieces into a string first kept tens of thousands of them
 * alive until each write; they outlived the young generation and grew the heap by tens
 * of MB on a large report.) A piece may also be bytes already encoded (a spool file's
 * text, copied without decoding it): they are copied in, and may be a reused buffer's,
 * since each is done with before the next is asked for.
 */
export async function writeChunksAtomic(
  file: string,
  produce: () => Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    for await (const chunk of produce()) {
      // A UTF-16 code unit is at most 3 UTF-8 bytes: past that bound, flush first.
      const bound = typeof chunk === 'string' ? chunk.length * 3 : chunk.byteLength;
      if (used + bound > CHUNK_BYTES) {
        if (used > 0) await handle.write(buffer, 0, used);
        used = 0;
        if (bound > CHUNK_BYTES) {
          await (typeof chunk === 'string' ? handle.write(chunk) : handle.write(chunk));
          continue;
        }
      }
      if (typeof chunk === 'string') used += buffer.write(chunk, used);
      else {
        buffer.set(chunk, used);
        used += chunk.byteLength;
      }
    }
    if (used > 0) await handle.write(buffer, 0, used);
    await handle.sync();
    await handle.close();
    await rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
}

const CHUNK_BYTES = 1 << 20;
