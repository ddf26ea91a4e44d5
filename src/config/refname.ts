/**
 * Git's rules for a branch name (git check-ref-format --branch), checked
 * without running git so that validation builds and spawns nothing.
 *
 * @returns why `name` is not a valid branch name, or undefined when it is.
 * @example whyNotBranchName('feature/login') // undefined
 * @example whyNotBranchName('fix..it')       // 'must not contain ".."'
 */
export function whyNotBranchName(name: string): string | undefined {
  if (name === '') return 'must not be empty';
  if (name.startsWith('-')) return 'must not start with "-"';
  if (name === 'HEAD' || name === '@') return `${JSON.stringify(name)} is reserved`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(name)) return 'must not contain spaces or control characters';
  const bad = /[~^:?*[\\]/.exec(name);
  if (bad) return `must not contain ${JSON.stringify(bad[0])}`;
  if (name.includes('..')) return 'must not contain ".."';
  if (name.includes('@{')) return 'must not contain "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) {
    return 'must not start or end with "/" or hold an empty component';
  }
  if (name.endsWith('.')) return 'must not end with "."';
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return 'no component may start with "."';
    if (component.endsWith('.lock')) return 'no component may end with ".lock"';
  }
  return undefined;
}
