/**
 * Counts of a few values (models, providers, error kinds) without a Map for the common case
 * of one value: a run of 100,000 single-sample cases would otherwise hold 400,000 Maps.
 */
export class Tally<K> {
  private only: K | null = null;
  private onlyCount = 0;
  private counts: Map<K, number> | null = null;

  add(key: K | null): void {
    if (key === null) return;
    if (this.counts === null && (this.only === null || this.only === key)) {
      this.only = key;
      this.onlyCount++;
      return;
    }
    if (this.counts === null) {
      this.counts = new Map([[this.only!, this.onlyCount]]);
      this.only = null;
    }
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Every value with its count. */
  entries(): [K, number][] {
    if (this.counts) return [...this.counts];
    return this.only === null ? [] : [[this.only, this.onlyCount]];
  }

  /** The values, most frequent first (ties in first-seen order). */
  byFrequency(): K[] {
    return this.entries()
      .sort((a, b) => b[1] - a[1])
      .map(([key]) => key);
  }
}
