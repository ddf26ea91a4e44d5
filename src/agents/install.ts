import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';

/** An agent package installed in the cache, as a run mounts it. */
export interface AgentInstall {
  readonly package: string;
  readonly version: string;
  /** `<cache>/<package>@<version>`. */
  readonly dir: string;
  /** The real path of the agent's executable (links resolved), the file to mount. */
  readonly binary: string;
  /** sha256 of the executable, for conditions.json, run.json and BASELINE.md. */
  readonly sha256: string;
}

/** The package could not be installed, or its binary is not where its adapter says. */
export class AgentInstallError extends EvalrigError {}

/** An exact version: 1.2.3 or 1.2.3-pre.1; never a range or a tag, so runs can be compared. */
const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const PACKAGE = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** The agents' cache: $EVALRIG_AGENTS_DIR, else `${XDG_CACHE_HOME:-~/.cache}/evalrig/agents`. */
export function agentsCacheRoot(): string {
  const fromEnv = process.env.EVALRIG_AGENTS_DIR;
  if (fromEnv) return fromEnv;
  const xdg = process.env.XDG_CACHE_HOME;
  return path.join(xdg ? xdg : path.join(homedir(), '.cache'), 'evalrig', 'agents');
}

/** Where `<package>@<version>` lives in the cache. */
export function agentDir(root: string, pkg: string, version: string): string {
  checkName(pkg, version);
  return path.join(root, `${pkg}@${version}`);
}

function checkName(pkg: string, version: string): void {
  if (!PACKAGE.test(pkg)) throw new AgentInstallError(`agent: ${pkg} is not an npm package name`);
  if (!EXACT.test(version)) {
    throw new AgentInstallError(
      `agent: ${pkg} needs an exact version (like 2.1.332), not ${JSON.stringify(version)}`,
    );
  }
}

/**
 * Returns the installed package, installing it first when the cache lacks it: `npm install`
 * of the exact version into a folder beside the final one, renamed into place once its binary
 * answers, so a half-done install is never taken for one. `bin` is the package's executable
 * under node_modules/.bin.
 */
export async function ensureAgentInstalled(options: {
  readonly package: string;
  readonly version: string;
  readonly bin: string;
  /**
   * The executable to mount, relative to the install's folder, when it is not the .bin link
   * (Codex: the link is a Node launcher, the static binary sits in a platform package).
   */
  readonly binaryPath?: string;
  readonly root?: string;
}): Promise<AgentInstall> {
  const root = options.root ?? agentsCacheRoot();
  const dir = agentDir(root, options.package, options.version);
  const found = await installed(dir, options);
  if (found) return found;
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await writeFile(path.join(partial, 'package.json'), '{"private":true}\n');
  // Loaded here: the agents' table is read by `evalrig validate`, which installs nothing.
  const { execa } = await import('execa');
  const npm = await execa(
    'npm',
    [
      'install',
      '--prefix',
      partial,
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--omit=dev',
      `${options.package}@${options.version}`,
    ],
    { reject: false, all: true },
  );
  if (npm.exitCode !== 0) {
    await rm(partial, { recursive: true, force: true });
    throw new AgentInstallError(
      `agent: npm could not install ${options.package}@${options.version}:\n${String(npm.all).slice(-2000)}`,
    );
  }
  if (!(await installed(partial, options))) {
    await rm(partial, { recursive: true, force: true });
    throw new AgentInstallError(
      `agent: ${options.package}@${options.version} installed no executable ${options.binaryPath ?? `node_modules/.bin/${options.bin}`}`,
    );
  }
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
  const done = await installed(dir, options);
  if (!done) throw new AgentInstallError(`agent: ${dir} vanished after its install`);
  return done;
}

/** The install in `dir`, or undefined when it has no executable binary. */
async function installed(
  dir: string,
  o: { package: string; version: string; bin: string; binaryPath?: string },
): Promise<AgentInstall | undefined> {
  const link = o.binaryPath
    ? path.join(dir, o.binaryPath)
    : path.join(dir, 'node_modules', '.bin', o.bin);
  const binary = await realpath(link).catch(() => undefined);
  if (!binary) return undefined;
  const st = await stat(binary).catch(() => undefined);
  if (!st?.isFile() || (st.mode & 0o111) === 0) return undefined;
  return { package: o.package, version: o.version, dir, binary, sha256: await sha256File(binary) };
}

export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (c) => hash.update(c))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
