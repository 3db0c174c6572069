import { createHash } from 'node:crypto';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML element content or a quoted attribute value: every markup character escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * JSON for a `<script type="application/json">` block. `<`, `>` and `&` become \u escapes
 * so model output holding `</script>` or `<!--` cannot end the block early; U+2028/2029
 * are escaped too, for any consumer that still treats them as line ends. JSON.parse
 * reads the escapes back to the original characters.
 */
export function embedJson(value: unknown): string {
  return embeddable(JSON.stringify(value));
}

/** JSON text made safe for a `<script type="application/json">` block (embedJson), a piece at a time. */
export function embeddable(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A CSP source expression allowing exactly this inline script or style body. */
function cspHash(body: string): string {
  return `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;
}

/**
 * The start of a self-contained page, up to and with `<body>`: its Content-Security-Policy
 * (nothing from the network, only this inline script and style by hash, images as data:
 * URLs; with Trusted Types required and no policy allowed, any string-to-markup sink
 * throws — the scripts only ever use textContent), no referrer, a phone-width viewport,
 * the title and the style. report.html and the trend page share it.
 */
export function pageHead(title: string, script: string, style: string): string {
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(script)}`,
    `style-src ${cspHash(style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
`;
}
