// The security headers every answer of `evalrig view` carries: apart from http.ts so that the
// event stream (live.ts), which http.ts names, can take them without an import circle.

/** The pages' policy: scripts, styles and requests from this server only; nothing inline. */
export const APP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** report.html's: its own inline styles, no script at all. */
export const REPORT_CSP =
  "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers every answer carries. */
export function baseHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}
