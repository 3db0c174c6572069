import { isLoopbackHost } from '../util/loopback.js';
import { show } from '../yaml/show.js';

/**
 * Says what is wrong with an expanded base URL, or null. Plain http:// is allowed only
 * for loopback (the embedded simulator, local proxies): elsewhere the key would travel
 * unencrypted.
 */
export function explainBaseUrl(url: string): { message: string; hint: string } | null {
  const example = 'write an absolute URL ending in /v1, e.g. https://openrouter.ai/api/v1';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { message: `base_url ${show(url)} is not a URL`, hint: example };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { message: `base_url must use https:// (got ${parsed.protocol}//)`, hint: example };
  }
  if (parsed.username || parsed.password) {
    return {
      message: 'base_url must not carry credentials (user:password@)',
      hint: 'remove them; the key is read from the variable named by api_key_env',
    };
  }
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    return {
      message: `plain http:// is refused for ${parsed.hostname}: the API key would travel unencrypted`,
      hint: 'use https://; http:// is accepted only for loopback hosts (127.0.0.1, localhost, ::1)',
    };
  }
  return null;
}
