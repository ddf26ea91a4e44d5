import { mkdirSync, lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The only global configuration evalrig's git ever reads. Repositories evalrig
 * prepares are chowned to the container's user while evalrig may run as root,
 * and git refuses "dubious ownership"; git 2.39 does not honour
 * `-c safe.directory` on the command line, so it has to live in a file.
 */
export const GLOBAL_CONFIG_TEXT = '[safe]\n\tdirectory = *\n';

/** The identity of every commit evalrig makes. */
export const IDENTITY = { name: 'evalrig', email: 'evalrig@localhost' } as const;

/**
 * Date of commits evalrig makes when the caller gives none: fixed, so that the
 * same content always gives the same commit.
 */
export const DEFAULT_COMMIT_DATE = '2000-01-01T00:00:00+0000';

/**
 * Inherited GIT_* variables that only choose how to reach a remote or trace a
 * run; everything else GIT_* (config injection, routing, templates, external
 * diff, replace refs, identities) is dropped.
 */
const KEPT_GIT_VARIABLES = [
  /^GIT_SSH/,
  /^GIT_SSL_/,
  /^GIT_HTTP_/,
  /^GIT_TRACE/,
  /^GIT_PROXY_/,
  /^GIT_EXEC_PATH$/,
];

export interface GitHome {
  /** Folder evalrig owns for git: holds the global config and the empty template. */
  dir: string;
  /** File GIT_CONFIG_GLOBAL points at (contains {@link GLOBAL_CONFIG_TEXT} only). */
  globalConfig: string;
  /** Empty folder given as `--template=` to clone and init. */
  emptyTemplate: string;
  /** Empty folder given as XDG_CONFIG_HOME, so $XDG_CONFIG_HOME/git/{ignore,attributes} are not read. */
  emptyXdg: string;
}

let home: GitHome | undefined;

/**
 * Prepares (once per process) the folder holding evalrig's git configuration:
 * `${os.tmpdir()}/evalrig-git-<uid>`. It is world-readable so that git run on
 * behalf of another user can read it, and refused if someone else owns it.
 */
export function gitHome(): GitHome {
  if (home) return home;
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `evalrig-git-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== uid)) {
    throw new Error(`${dir} is not a folder owned by uid ${uid}; remove it and retry`);
  }
  const emptyTemplate = join(dir, 'empty-template');
  const emptyXdg = join(dir, 'empty-xdg');
  mkdirSync(emptyTemplate, { recursive: true, mode: 0o755 });
  mkdirSync(emptyXdg, { recursive: true, mode: 0o755 });
  const globalConfig = join(dir, 'gitconfig');
  let current: string | undefined;
  try {
    current = readFileSync(globalConfig, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== GLOBAL_CONFIG_TEXT) {
    // temp + rename: a concurrent process never reads a half-written file.
    const temp = `${globalConfig}.${process.pid}.tmp`;
    writeFileSync(temp, GLOBAL_CONFIG_TEXT, { mode: 0o644 });
    renameSync(temp, globalConfig);
  }
  home = { dir, globalConfig, emptyTemplate, emptyXdg };
  return home;
}

/**
 * The environment every git process runs with: the inherited environment minus
 * the operator's git configuration and routing, plus evalrig's isolation and
 * identity. `extra` comes last (a caller may set GIT_INDEX_FILE for a scratch
 * index, or dates).
 */
export function isolatedEnv(
  inherited: NodeJS.ProcessEnv,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const { globalConfig, emptyXdg } = gitHome();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited)) {
    if (value === undefined) continue;
    if (key.startsWith('GIT_') && !KEPT_GIT_VARIABLES.some((kept) => kept.test(key))) continue;
    env[key] = value;
  }
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: globalConfig,
    XDG_CONFIG_HOME: emptyXdg,
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    LANG: 'C',
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    GIT_AUTHOR_DATE: DEFAULT_COMMIT_DATE,
    GIT_COMMITTER_DATE: DEFAULT_COMMIT_DATE,
  });
  return Object.assign(env, extra);
}

/**
 * Options placed before the subcommand: hooks can never run, and no fsmonitor
 * daemon or command configured in a repository is started.
 */
export const PROTECTED_OPTIONS: readonly string[] = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
];

/**
 * Options of every git call that needs no transport: none is allowed, so a
 * repository's own config (a promisor remote, an `ext::` URL, an upload-pack
 * command) can never make git fetch a missing object or run a command.
 */
export const NO_TRANSPORT_OPTIONS: readonly string[] = ['-c', 'protocol.allow=never'];
