import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { join } from 'node:path';

const BUFFER_BYTES = 1 << 20;

/**
 * A temp file that a reporter appends its part of each suite to while a run is folded, and
 * reads back once when it assembles its file: what a large report writes is never held in
 * memory. Each piece is encoded into one reused buffer at once, so the pieces die young:
 * kept as strings until a megabyte had gathered, they outlived the young generation and
 * grew the old one by about 3 KB a case (20,000 cases: 95 MB of garbage before the next
 * full collection).
 */
export class Spool {
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /** A new, empty spool in `dir` (hidden, removed by `remove`). */
  static async open(dir: string, name: string): Promise<Spool> {
    const path = join(dir, `.${name}.${randomBytes(6).toString('hex')}.spool`);
    return new Spool(path, await open(path, 'w'));
  }

  async write(text: string): Promise<void> {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: past that bound, flush first.
    if (this.used + text.length * 3 > BUFFER_BYTES) {
      await this.flush();
      if (text.length * 3 > BUFFER_BYTES) {
        await this.handle.write(text);
        return;
      }
    }
    this.used += this.buffer.write(text, this.used);
  }

  /** Everything written, in order, as UTF-8 text pieces. */
  async *read(): AsyncGenerator<string> {
    await this.flush();
    const stream = createReadStream(this.path, { encoding: 'utf8', highWaterMark: BUFFER_BYTES / 4 });
    for await (const piece of stream) yield piece as string;
  }

  async remove(): Promise<void> {
    await this.handle.close().catch(() => {});
    await rm(this.path, { force: true });
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    await this.handle.write(this.buffer, 0, used);
  }
}
