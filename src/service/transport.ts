/** undici's own header/body timers (set on an injected dispatcher) count as time-outs. */
export function isUndiciTimeout(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** Says where the service tried to send us, without the query string, and why we did not go. */
export function redirectMessage(status: number, from: string, location: string | undefined): string {
  let target = 'an unstated location';
  if (location) {
    try {
      const url = new URL(location, from);
      target = `${url.origin}${url.pathname}`; // the query string could carry anything
    } catch {
      target = 'an unparseable location';
    }
  }
  return (
    `the service redirected (HTTP ${status} to ${target}); redirects are not followed so the key ` +
    'is never sent to another address. Check base_url'
  );
}

/** A transport failure in one line: origin, error code, message (no headers, so no key). */
export function networkMessage(url: string, cause: unknown): string {
  const error = cause as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof error?.code === 'string' ? error.code : (error?.cause?.code as string | undefined);
  const text = typeof error?.message === 'string' ? error.message : String(cause);
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // keep the raw URL; it holds no key
  }
  return `could not complete the request to ${origin}: ${code ? `${code}: ` : ''}${text}`;
}
