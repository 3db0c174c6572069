/**
 * One copy of each repeated short string (model ids, finish reasons): every parsed
 * response body brings its own copy of `"openai/gpt-4o-mini"`, and a 100,000-case run
 * would otherwise hold 100,000 of them. Bounded, so a service answering with endless
 * distinct values cannot grow it without limit: past the cap, strings pass through.
 */
const MAX_ENTRIES = 4096;
const MAX_LENGTH = 256;
const table = new Map<string, string>();

export function intern(value: string): string {
  if (value.length > MAX_LENGTH) return value;
  const known = table.get(value);
  if (known !== undefined) return known;
  if (table.size < MAX_ENTRIES) table.set(value, value);
  return value;
}
