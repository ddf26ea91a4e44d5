import { readFile, rename, writeFile } from 'node:fs/promises';

/**
 * Small, exact edits of a repository's `config` file that git itself has just
 * written (by `clone` or `init`), done in place of `git remote set-url`,
 * `git remote remove` and `git branch --set-upstream-to`: each of those is a
 * process, and a prepared workspace needs up to four of them. The file is
 * written as git writes it (same quoting, same section layout) and replaced
 * atomically, so a git process reading it meanwhile sees the old or the new
 * file, never half of one.
 */

/** A value as git writes it: quoted when it starts or ends with a space or holds ';' or '#'. */
export function configValue(value: string): string {
  const quote = /^ | $|[;#]/.test(value) ? '"' : '';
  const escaped = value.replace(/[\n\t"\\]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\${c}`,
  );
  return `${quote}${escaped}${quote}`;
}

/** A section header with a subsection, as git writes it: `[branch "name"]`. */
export function sectionHeader(section: string, subsection: string): string {
  return `[${section} "${subsection.replace(/["\\]/g, (c) => `\\${c}`)}"]`;
}

interface Section {
  header: string;
  lines: string[];
}

function parse(text: string): Section[] {
  const sections: Section[] = [{ header: '', lines: [] }];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('[')) sections.push({ header: line, lines: [line] });
    else sections[sections.length - 1]!.lines.push(line);
  }
  return sections;
}

function render(sections: Section[]): string {
  return sections.map((section) => section.lines.map((line) => `${line}\n`).join('')).join('');
}

async function edit(path: string, change: (sections: Section[]) => Section[]): Promise<void> {
  const text = await readFile(path, 'utf8');
  const temp = `${path}.evalrig-${process.pid}`;
  await writeFile(temp, render(change(parse(text))), { mode: 0o644 });
  await rename(temp, path);
}

/**
 * Points `origin` at `url` (fetching every branch into refs/remotes/origin/,
 * as `git clone` and `git remote add` set it up) and makes each of `branches`
 * track its namesake on origin, as `git push -u` would. An existing
 * `[remote "origin"]` section is replaced where it stands; branch sections
 * already there are kept; missing ones are appended in the order given.
 */
export async function setOriginAndUpstreams(
  configPath: string,
  url: string,
  branches: readonly string[],
): Promise<void> {
  const remoteHeader = sectionHeader('remote', 'origin');
  const remoteLines = [
    remoteHeader,
    `\turl = ${configValue(url)}`,
    '\tfetch = +refs/heads/*:refs/remotes/origin/*',
  ];
  await edit(configPath, (sections) => {
    const remote = sections.find((section) => section.header === remoteHeader);
    if (remote) remote.lines = remoteLines;
    else sections.push({ header: remoteHeader, lines: remoteLines });
    for (const branch of branches) {
      const header = sectionHeader('branch', branch);
      if (sections.some((section) => section.header === header)) continue;
      sections.push({
        header,
        lines: [header, '\tremote = origin', `\tmerge = ${configValue(`refs/heads/${branch}`)}`],
      });
    }
    return sections;
  });
}

/** Removes the `[remote "<name>"]` section (what `git remote remove` does to the file of a repository with no tracking refs). */
export async function removeRemote(configPath: string, name: string): Promise<void> {
  const header = sectionHeader('remote', name);
  await edit(configPath, (sections) => sections.filter((section) => section.header !== header));
}
