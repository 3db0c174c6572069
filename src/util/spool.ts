import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { join } from 'node:path';

const FLUSH_AT = 1 << 20;

/**
 * A temp file that a reporter appends its part of each suite to while a run is folded, and
 * reads back once when it assembles its file: what a large report writes is never held in
 * memory. Pieces are buffered and written a megabyte at a time.
 */
export class Spool {
  private pending: string[] = [];
  private size = 0;

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
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) await this.flush();
  }

  /** Everything written, in order, as UTF-8 text pieces. */
  async *read(): AsyncGenerator<string> {
    await this.flush();
    const stream = createReadStream(this.path, { encoding: 'utf8', highWaterMark: FLUSH_AT });
    for await (const piece of stream) yield piece as string;
  }

  async remove(): Promise<void> {
    await this.handle.close().catch(() => {});
    await rm(this.path, { force: true });
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.size = 0;
    await this.handle.write(text);
  }
}
