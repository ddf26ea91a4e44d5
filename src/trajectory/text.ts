/**
 * A text kept to `max` characters, with a mark saying how many were left out.
 *
 * @example
 * clipText('abcdef', 3); // 'abc\n[evalrig: 3 more characters not shown]'
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[evalrig: ${text.length - max} more characters not shown]`;
}

/**
 * Fragments an evidence text quotes ("…", “…”, `…`), at least 6 characters long: what a step
 * is looked for by.
 */
export function quotedFragments(evidence: string): string[] {
  const found: string[] = [];
  for (const m of evidence.matchAll(/["“`']([^"”`']{6,400})["”`']/gu)) found.push(m[1]!.trim());
  return found.filter((f) => f.length >= 6);
}
