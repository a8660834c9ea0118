/**
 * The renderer's Content-Security-Policy: nothing from any other origin, no inline or eval'd script.
 * Inline styles are allowed because the chart library positions its SVG with style attributes.
 * Kept identical to the meta tag in src/renderer/index.html.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')
