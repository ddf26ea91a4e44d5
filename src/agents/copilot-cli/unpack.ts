import { access, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentInstallError, type AgentInstall } from '../install.js';

/** The folder of the install that holds its unpacked package cache (what a run mounts). */
export const UNPACKED_DIR = 'pkg-cache';

/** The mark the binary leaves in a version's folder once it is whole. */
const DONE_MARK = '.extraction-complete';

/** Where the binary puts one version's files in its cache (COPILOT_PKG_CACHE_HOME). */
export function unpackedVersionDir(
  cache: string,
  version: string,
  arch: string = process.arch,
): string {
  return path.join(cache, 'pkg', `linux-${arch === 'arm64' ? 'arm64' : 'x64'}`, version);
}

/**
 * Copilot CLI's package cache, unpacked once per version on the host. Its executable carries
 * its JavaScript, WebAssembly and native tools as one archive (235 MB unpacked for 1.0.102)
 * that it unpacks on first start into COPILOT_PKG_CACHE_HOME: a run would pay that every time.
 * So it is unpacked here, into the install's folder, by the binary itself, in the extract-only
 * mode it starts a copy of itself in when its cache is empty (COPILOT_SEA_EXTRACT_ONLY, read
 * from its loader): the layout is its own, `pkg/linux-<arch>/<version>/` and its done mark.
 * Unpacked beside the final folder and renamed into place: a half-done one is never taken.
 */
export async function ensureCopilotUnpacked(
  install: AgentInstall,
  arch: string = process.arch,
): Promise<string> {
  const dir = path.join(install.dir, UNPACKED_DIR);
  if (await isUnpacked(dir, install.version, arch)) return dir;
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  // It may write a device id under HOME: a scratch one, never the folder runs mount.
  const home = await mkdtemp(path.join(tmpdir(), 'evalrig-copilot-unpack-'));
  try {
    const { execa } = await import('execa');
    const r = await execa(install.binary, ['--binary-version'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        COPILOT_SEA_EXTRACT_ONLY: '1',
        COPILOT_PKG_CACHE_HOME: partial,
      },
      extendEnv: false,
      reject: false,
      timeout: 300_000,
      all: true,
    });
    if (r.exitCode !== 0 || !(await isUnpacked(partial, install.version, arch))) {
      await rm(partial, { recursive: true, force: true });
      const said = String(r.all ?? '').slice(-2000) || `exit ${String(r.exitCode)}`;
      throw new AgentInstallError(
        `agent: ${install.package}@${install.version} could not unpack its package cache into ${partial}: ${said}`,
      );
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
  return dir;
}

/** Whether `cache` holds the whole unpacked `version` (the binary's own mark). */
export function isUnpacked(
  cache: string,
  version: string,
  arch: string = process.arch,
): Promise<boolean> {
  return access(path.join(unpackedVersionDir(cache, version, arch), DONE_MARK)).then(
    () => true,
    () => false,
  );
}
