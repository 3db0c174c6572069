/**
 * How much of a text a line or a view quotes, decided once: a check's or a drift's message,
 * a service's error message, and what report.html shows of one prompt, answer or tool
 * call. A service (5,000 tool calls in one answer) or a table (a 50 MB cell) decides how
 * long the texts are; these bounds decide how much of them a reader is shown, and the cut
 * says how much was left out.
 */

/** Longest message a check, a drift or a service error keeps: one line a reviewer reads. */
export const MAX_MESSAGE_CHARS = 500;

/** Longest text report.html quotes of one prompt, answer or tool call (report.json holds it whole). */
export const MAX_VIEW_TEXT_CHARS = 64 * 1024;

const leftOut = (chars: number) => `… (+${chars} characters)`;

/** `text` as it is when it has at most `max` characters, else cut to `max` with how many were left out. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  // The count of what is left out is part of the text: fewer digits leave room for more of it.
  let keep = Math.max(0, max - leftOut(text.length).length);
  for (
    let more = max - leftOut(text.length - keep).length;
    more > keep;
    more = max - leftOut(text.length - keep).length
  )
    keep = more;
  // Never half of a surrogate pair.
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return `${text.slice(0, keep)}${leftOut(text.length - keep)}`;
}

/**
 * `parts` joined by `separator` while they fit in `max` characters, then how many were left
 * out (`a, b, … and 4,998 more`); a first part longer than `max` is shortened itself.
 */
export function joinWithin(
  parts: readonly string[],
  separator: string,
  max: number = MAX_MESSAGE_CHARS,
): string {
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const next = `${i > 0 ? separator : ''}${parts[i]}`;
    const rest = parts.length - i;
    // Room for the count of what would be left out after this part.
    const tail = i + 1 < parts.length ? `${separator}… and ${rest - 1} more`.length : 0;
    if (out.length + next.length + tail > max) {
      if (i === 0)
        return `${shorten(parts[0]!, Math.max(0, max - tail))}${tail ? `${separator}… and ${rest - 1} more` : ''}`;
      return `${out}${separator}… and ${rest} more`;
    }
    out += next;
  }
  return out;
}
