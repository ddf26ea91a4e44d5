/**
 * Factory Droid runs each command under a bash watchdog that asks `ps -o ppid= -p $$` every
 * 2 s whether droid still owns it, and kills the command's process group (SIGKILL) as soon as
 * the answer fails: in an image without `ps` (Debian's minbase and slim images have no procps)
 * every command dies at once. Where the image has no `ps`, each turn puts this one on PATH,
 * after the image's own folders: it answers that question and the one its process-tree kill
 * asks (`ps -o pid --no-headers --ppid PID`) from /proc, and nothing else (exit 127, as a
 * missing `ps` would).
 */
export const PS_SHIM = [
  '#!/bin/sh',
  '# evalrig: the two questions Factory Droid asks of ps, for an image that has none.',
  'stat_of() { { read -r stat < "/proc/$1/stat"; } 2>/dev/null; }',
  'if [ "$#" = 4 ] && [ "$1 $2 $3" = "-o ppid= -p" ]; then',
  '  stat_of "$4" || exit 1',
  '  set -- ${stat##*\\) }',
  '  echo "$2"',
  '  exit 0',
  'fi',
  'if [ "$#" = 5 ] && [ "$1 $2 $3 $4" = "-o pid --no-headers --ppid" ]; then',
  '  parent=$5',
  '  for d in /proc/[0-9]*; do',
  '    stat_of "${d#/proc/}" || continue',
  '    set -- ${stat##*\\) }',
  '    [ "$2" = "$parent" ] && echo "${d#/proc/}"',
  '  done',
  '  exit 0',
  'fi',
  'echo "ps: not in this image (evalrig answers Factory Droid\'s two questions only)" >&2',
  'exit 127',
].join('\n');
