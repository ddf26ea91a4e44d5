/**
 * Compact JSON as Go's encoding/json writes it for gh: object keys sorted at every level,
 * U+2028 and U+2029 always escaped, and `<`, `>`, `&` escaped when HTML escaping is on
 * (`json.Marshal`, used for `--jq` results; gh's `--json` exporter turns it off).
 */
export function goJson(value: unknown, escapeHtml: boolean): string {
  let s = JSON.stringify(sortKeys(value)).replace(/[\u2028\u2029]/g, (c) =>
    c === '\u2028' ? '\\u2028' : '\\u2029',
  );
  if (escapeHtml) {
    s = s.replace(/[<>&]/g, (c) => (c === '<' ? '\\u003c' : c === '>' ? '\\u003e' : '\\u0026'));
  }
  return s;
}

/** Compact JSON with object keys sorted at every level, as gh prints `--json`. */
export function stringifySorted(value: unknown): string {
  return goJson(value, false);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort()) out[k] = sortKeys(o[k]);
    return out;
  }
  return v;
}
