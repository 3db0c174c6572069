/** Code-unit order: the same on every machine and locale, unlike localeCompare (and no ICU set-up). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
