import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeChunksAtomic } from './atomic.js';

const BUFFER_BYTES = 1 << 20;

/**
 * A file written in three parts: what a reporter appends while a run is folded goes to a
 * hidden temp file (opened on the first write) and is never held in memory; at the end
 * `finish` writes `dir/name` atomically as a head, that temp file's text and a tail (the
 * head is only known once every suite is in), and removes the temp file. Each piece is
 * encoded into one reused buffer at once, so the pieces die young: kept as strings until a
 * megabyte had gathered, they outlived the young generation and grew the old one by about
 * 3 KB a case (20,000 cases: 95 MB of garbage before the next full collection).
 */
export class SpooledFile {
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private temp: { path: string; handle: FileHandle } | null = null;

  constructor(
    private readonly dir: string,
    private readonly name: string,
  ) {}

  /**
   * Appends text, or bytes already encoded (copied at once: a reused buffer's may be passed).
   * A promise only when the buffer had to go to disk first: most writes are copied into it
   * and return nothing, so a reporter writing a case returns nothing for the fold to wait on.
   */
  write(text: string | Uint8Array): Promise<void> | undefined {
    // A UTF-16 code unit is at most 3 UTF-8 bytes: past that bound, flush first.
    const bound = typeof text === 'string' ? text.length * 3 : text.byteLength;
    if (this.used + bound > BUFFER_BYTES) return this.flushThenWrite(text, bound);
    if (typeof text === 'string') this.used += this.buffer.write(text, this.used);
    else {
      this.buffer.set(text, this.used);
      this.used += text.byteLength;
    }
    return undefined;
  }

  private async flushThenWrite(text: string | Uint8Array, bound: number): Promise<void> {
    await this.flush();
    if (bound > BUFFER_BYTES) {
      const handle = await this.open();
      await (typeof text === 'string' ? handle.write(text) : handle.write(text));
      return;
    }
    await this.write(text);
  }

  /** Writes `dir/name` atomically: `head`, everything written, `tail`. Returns its path. */
  async finish(head: string, tail: string): Promise<string> {
    const file = join(this.dir, this.name);
    await this.flush();
    const spooled = this.spooled();
    await writeChunksAtomic(file, async function* () {
      yield head;
      yield* spooled;
      yield tail;
    });
    await this.discard();
    return file;
  }

  /**
   * Appends everything written here so far to `target`, and starts empty again: a part
   * whose head is only known after its body (a JUnit suite's counts).
   */
  async moveTo(target: SpooledFile): Promise<void> {
    if (this.temp) {
      await this.flush();
      for await (const piece of this.spooled()) await target.write(piece);
    } else if (this.used > 0) await target.write(this.buffer.subarray(0, this.used));
    await this.discard();
  }

  /**
   * The temp file's bytes, read back into this file's own buffer (empty once flushed) a
   * piece at a time, each done with before the next is read. Copied as bytes, not decoded:
   * a large report's text read back as 256 KB strings went to the large-object space and,
   * with the read stream's buffers, put about 40 MB on a 100,000-case run's peak.
   */
  private async *spooled(): AsyncGenerator<Uint8Array> {
    const handle = this.temp?.handle;
    if (!handle) return;
    for (let at = 0; ;) {
      const { bytesRead } = await handle.read(this.buffer, 0, BUFFER_BYTES, at);
      if (bytesRead === 0) return;
      at += bytesRead;
      yield this.buffer.subarray(0, bytesRead);
    }
  }

  /** Removes the temp file (after finish, or when the run failed). */
  async discard(): Promise<void> {
    const temp = this.temp;
    this.temp = null;
    this.used = 0;
    if (!temp) return;
    await temp.handle.close().catch(() => {});
    await rm(temp.path, { force: true });
  }

  private async open(): Promise<FileHandle> {
    if (!this.temp) {
      const path = join(this.dir, `.${this.name}.${randomBytes(6).toString('hex')}.spool`);
      this.temp = { path, handle: await open(path, 'w+') };
    }
    return this.temp.handle;
  }

  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    await (await this.open()).write(this.buffer, 0, used);
  }
}
