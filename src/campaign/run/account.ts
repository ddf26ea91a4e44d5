/**
 * The agent's account in its sandbox: a passwd (and group) entry for the uid it runs as.
 * Runs exec as a numeric `uid:gid` (1000, or the host's own uid when evalrig is not root), and
 * an image need not have a user of that uid (a bare base, a user's environment image, a host
 * uid that is not 1000). Without one, getpwuid fails: `id -un` errs, and Node's
 * os.userInfo() throws, which Qwen Code calls at start. So before the first turn the harness
 * reads the image's /etc/passwd and /etc/group through the sandbox's file seam (no exec, no
 * shell) and writes them back with the missing entry appended; a file that has it is left alone.
 */
import type { Owner, Sandbox } from '../../sandbox/index.js';

/** /etc/passwd and /etc/group are small; a bigger one is not an image's own and is left alone. */
const MAX_BYTES = 1 << 20;

/** The name the entry gets: `evalrig`, or `evalrig-<uid>` when an image has another `evalrig`. */
function freeName(lines: readonly string[], uid: number): string {
  const taken = new Set(lines.map((l) => l.split(':')[0]));
  return taken.has('evalrig') ? `evalrig-${uid}` : 'evalrig';
}

/** The file's lines, or null when it is missing or too big (then nothing is written). */
async function linesOf(sandbox: Sandbox, file: string): Promise<string[] | null> {
  const bytes = await sandbox.readFile(file, { maxBytes: MAX_BYTES }).catch(() => null);
  return bytes ? bytes.toString('utf8').split('\n') : null;
}

/** The line for `id` in field `field` of a colon-separated database, when one has it. */
function hasId(lines: readonly string[], field: number, id: number): boolean {
  return lines.some((l) => l.split(':')[field] === String(id));
}

/** `lines` with `entry` added before the final newline. */
function appended(lines: readonly string[], entry: string): string {
  const kept = lines.at(-1) === '' ? lines.slice(0, -1) : lines;
  return `${[...kept, entry].join('\n')}\n`;
}

/** What a sandbox started from one image needs written for one account: the same for every one. */
interface AccountEdit {
  readonly added: { readonly passwd?: string; readonly group?: string };
  readonly files: readonly { readonly path: string; readonly content: string }[];
}

/**
 * The edits already worked out in a campaign, by engine, image and account: every sandbox of
 * an image starts with the image's own files (no process has run in it yet), so the reads are
 * made once per image, not once per run. Sandboxes starting together wait for the same reads;
 * an edit from reads that failed is undefined (each sandbox then reads for itself).
 */
export type AccountMemo = Map<string, Promise<AccountEdit | undefined>>;

/** Reads both files and works out what to add; `complete` is false when one could not be read. */
async function accountEditOf(
  sandbox: Sandbox,
  agent: Owner,
  home: string,
): Promise<{ edit: AccountEdit; complete: boolean }> {
  const [passwd, group] = await Promise.all([
    linesOf(sandbox, '/etc/passwd'),
    linesOf(sandbox, '/etc/group'),
  ]);
  const added: { passwd?: string; group?: string } = {};
  const files = [];
  if (passwd && !hasId(passwd, 2, agent.uid)) {
    const name = freeName(passwd, agent.uid);
    added.passwd = `${name}:x:${agent.uid}:${agent.gid}:evalrig agent:${home}:/bin/sh`;
    files.push({ path: '/etc/passwd', content: appended(passwd, added.passwd) });
  }
  if (group && !hasId(group, 2, agent.gid)) {
    added.group = `${freeName(group, agent.gid)}:x:${agent.gid}:`;
    files.push({ path: '/etc/group', content: appended(group, added.group) });
  }
  return { edit: { added, files }, complete: passwd !== null && group !== null };
}

/**
 * Adds the agent's passwd entry (`home` its home) and its group's, where the image lacks them.
 * Returns what it added (for tests and the log): nothing when the image had both. With a
 * `memo`, a fresh sandbox of an image met before is given the same edit without reading again
 * (a read that failed is not kept: the next sandbox reads for itself).
 */
export async function ensureAgentAccount(
  sandbox: Sandbox,
  agent: Owner,
  home: string,
  memo?: { readonly known: AccountMemo; readonly image: string },
): Promise<{ readonly passwd?: string; readonly group?: string }> {
  const key = memo && [sandbox.engine, memo.image, agent.uid, agent.gid, home].join('\n');
  const known = key === undefined ? undefined : memo?.known.get(key);
  // No await before the memo holds this read: a sandbox starting beside finds it.
  let edit = known ? await known : undefined;
  if (!edit) {
    const reading = accountEditOf(sandbox, agent, home);
    if (key !== undefined && !known) {
      const kept = reading.then((r) => (r.complete ? r.edit : undefined));
      memo?.known.set(key, kept);
      // A failed read is forgotten: the next sandbox reads again.
      void kept.then((e) => e ?? memo?.known.delete(key));
    }
    edit = (await reading).edit;
  }
  // Root's, 0644, as the image had them.
  if (edit.files.length > 0) await sandbox.writeFiles(edit.files);
  return edit.added;
}
