import { randomBytes } from 'node:crypto';
import { hash } from './words.js';

/** Counters the simulator exposes at `GET /__sim/stats`. */
export interface SimStats {
  /** Chat-completion requests received (both endpoints, faults included). */
  completions: number;
  /** Requests per `x-driftcheck-case` header value. */
  byCase: Record<string, number>;
  /** Replies per HTTP status; `network` for dropped sockets, `timeout` for hung requests. */
  byStatus: Record<string, number>;
  /**
   * When the last completion reply was written out whole (ms since the epoch; null before the
   * first): a client's time from its last answer to its exit is measured from it (bench).
   */
  lastReplyAt: number | null;
}

/** Everything the simulator remembers between requests. One instance per server. */
export class SimState {
  private completions = 0;
  /** The seed as given, for coins that must not depend on the order other requests arrived in. */
  private readonly coinSeed: number;
  constructor(private seed: number) {
    this.coinSeed = seed;
  }
  /** How often each request (by a hash of its identity) was seen: the nth repeat gets the nth coin. */
  private readonly seen = new Map<number, number>();
  private readonly byCase = new Map<string, number>();
  private readonly byStatus = new Map<string, number>();
  /** Successful completions per presented key (credit/budget limits). */
  private readonly successes = new Map<string, number>();
  /** Faults already produced per fail_times identity. */
  private readonly faultsProduced = new Map<string, number>();
  /** Alias resolutions so far; drives `aliasMoveAfter`. */
  aliasResolutions = 0;
  private ids = 0;
  // A per-server random prefix keeps ids unique across simulator restarts without per-request crypto.
  private readonly idPrefix = randomBytes(6).toString('base64url');

  countRequest(caseId: string | undefined): void {
    this.completions++;
    if (caseId !== undefined) this.byCase.set(caseId, (this.byCase.get(caseId) ?? 0) + 1);
  }

  countReply(status: string): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }

  private lastReplyAt: number | null = null;

  /** A completion reply's last byte was handed to the socket. */
  replyFinished(): void {
    this.lastReplyAt = Date.now();
  }

  successesOf(key: string): number {
    return this.successes.get(key) ?? 0;
  }

  countSuccess(key: string): void {
    this.successes.set(key, this.successesOf(key) + 1);
  }

  /** Uniform in [0, 1) from a seeded generator (mulberry32): a fixed seed replays the same coins. */
  random(): number {
    this.seed = (this.seed + 0x6d2b79f5) | 0;
    let t = this.seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /**
   * Uniform in [0, 1) for the nth time this `identity` (a request and a purpose) is seen: a
   * function of the seed, the request and n alone, so concurrent requests of other cases
   * cannot change which repeat of this one draws which coin.
   */
  coin(identity: string): number {
    const key = hash(identity);
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    // murmur3's finaliser spreads FNV's weak low bits over the whole word.
    let h = hash(`${this.coinSeed}|${key}|${n}`);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  }

  /** True while the fault should still fire for this identity (and records that it did). */
  takeFault(identity: string, failTimes: number): boolean {
    const produced = this.faultsProduced.get(identity) ?? 0;
    if (produced >= failTimes) return false;
    this.faultsProduced.set(identity, produced + 1);
    return true;
  }

  /** A fresh, unique id suffix (counter-based, so cheap at 100k requests). */
  nextId(): string {
    this.ids++;
    return `${this.idPrefix}${this.ids.toString(36).padStart(8, '0')}`;
  }

  stats(): SimStats {
    return {
      completions: this.completions,
      byCase: Object.fromEntries(this.byCase),
      byStatus: Object.fromEntries(this.byStatus),
      lastReplyAt: this.lastReplyAt,
    };
  }
}
