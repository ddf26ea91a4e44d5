import path from 'node:path';
import { quote } from './problems.js';

/**
 * Why a path meant to land inside the work tree would not (absolute, climbing
 * with "..", naming the work tree itself or its .git), or undefined when it is
 * a plain relative path.
 */
export function whyEscapesWorkTree(p: string): string | undefined {
  if (path.posix.isAbsolute(p) || path.win32.isAbsolute(p)) {
    return `escapes the work tree: ${quote(p)} is absolute; give a path relative to the work tree`;
  }
  const segments = p.split(/[\\/]/);
  if (segments.includes('..')) {
    return `escapes the work tree: ${quote(p)} contains ".."`;
  }
  const normalized = normalizeWorkTreePath(p);
  if (normalized === '.' || normalized === '') {
    return `must name a path inside the work tree, not the work tree itself`;
  }
  if (normalized.split('/')[0] === '.git') {
    return `must not write into the repository's .git folder`;
  }
  return undefined;
}

/** "a//b/./c/" -> "a/b/c": the form recorded and used for a work-tree path. */
export function normalizeWorkTreePath(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, '/')).replace(/\/+$/, '');
}
