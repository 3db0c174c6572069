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
 * file's text in pieces, written as they come (buffered to ~1 MiB writes).
 */
export async function writeChunksAtomic(file: string, produce: () => Iterable<string>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w');
  try {
    let buffer = '';
    for (const chunk of produce()) {
      buffer += chunk;
      if (buffer.length >= 1 << 20) {
        await handle.write(buffer);
        buffer = '';
      }
    }
    await handle.write(buffer);
    await handle.sync();
    await handle.close();
    await rename(temp, file);
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
}
