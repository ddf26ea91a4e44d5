/**
 * The tar command lines a copying provider runs inside its sandbox, written
 * once: every provider syncs out with the same flags, so a tree comes back
 * the same way whichever backend ran it.
 */

/**
 * Packs the NUL-separated names read from `namesFrom` (a file, or `-` for
 * stdin), relative to `folder`. Holes do not cross (apply.ts writes them as
 * holes); two names of one file (git's hard-linked objects) come back as two
 * files, not a link entry; names are taken verbatim, never as options.
 */
export function tarCreateCommand(folder: string, namesFrom: string): string[] {
  return [
    'tar',
    '-c',
    '-f',
    '-',
    '--format=pax',
    '--sparse',
    '--sparse-version=1.0',
    '--null',
    '--no-recursion',
    '--hard-dereference',
    '--verbatim-files-from',
    '--no-unquote',
    '-C',
    folder,
    '-T',
    namesFrom,
  ];
}

/**
 * Unpacks the archive at `archive` over `/` as the sandbox's own user: existing
 * folders (emptyDir mounts, root's) keep their metadata, which a non-root tar
 * may not set, and owners are never taken from the headers. `leaveOut` names
 * one entry (relative to `/`) not to unpack, that entry alone, not its tree.
 */
export function tarExtractCommand(archive: string, leaveOut?: string): string[] {
  const command = ['tar', '-x', '-f', archive, '-C', '/', '--no-same-owner', '--no-overwrite-dir'];
  if (leaveOut === undefined) return command;
  return [...command, '--no-recursion', '--anchored', '--no-wildcards', `--exclude=${leaveOut}`];
}
