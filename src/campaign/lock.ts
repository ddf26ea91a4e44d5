import { createHash } from 'node:crypto';
import { open, readFile, realpath, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { InputError } from '../errors/index.js';
import { isProcessAlive } from '../runtime/index.js';

const LOCK = '.evalrig.lock';

function busy(outDir: string, pid: number | undefined): InputError {
  // The pid file may still name a holder that died before the live one wrote it.
  const who = pid && isProcessAlive(pid) ? `another evalrig (pid ${pid})` : 'another evalrig';
  return new InputError(`${who} is writing to ${outDir}; wait for it or choose another --out`);
}

async function holderPid(file: string): Promise<number | undefined> {
  const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * On Linux the lock is an abstract unix socket named after the folder's real
 * path: binding it is atomic, and the kernel releases it when the process
 * ends, however it ends. So there is no stale lock to take over, and no race
 * between two take-overs (a pid file's take-over is check-then-act: two
 * processes can both see it stale and both take it). The pid file beside it
 * only names the holder in the refusal. Abstract sockets belong to a network
 * namespace: two orchestrators in different containers sharing one folder
 * through a mount would not see each other's lock (evalrig runs on the host).
 */
async function bindAbstract(name: string): Promise<Server | 'busy'> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve('busy');
      else reject(error);
    });
    server.listen({ path: `\0${name}` }, () => {
      // Holding the lock must not keep the process alive.
      server.unref();
      resolve(server);
    });
  });
}

async function lockAbstract(outDir: string, file: string): Promise<() => Promise<void>> {
  const real = await realpath(outDir);
  const name = `evalrig-lock-${createHash('sha256').update(real).digest('hex')}`;
  const server = await bindAbstract(name);
  if (server === 'busy') throw busy(outDir, await holderPid(file));
  const handle = await open(file, 'w').catch((error: unknown) => {
    server.close();
    throw error;
  });
  await handle.writeFile(`${process.pid}\n`);
  await handle.close();
  return async () => {
    await rm(file, { force: true });
    server.close();
  };
}

/** Elsewhere: a pid file created exclusively; a lock whose pid is gone is taken over. */
async function lockFile(outDir: string, file: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return async () => {
        await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = await holderPid(file);
      if (pid === undefined || (pid !== process.pid && isProcessAlive(pid)))
        throw busy(outDir, pid);
      await rm(file, { force: true });
    }
  }
  throw new InputError(`cannot lock ${outDir} (${file})`);
}

/**
 * Takes the campaign folder for this process: two `evalrig run` into one
 * folder would redo each other's runs. Two started at the same moment can
 * never both hold it. Returns the release function.
 */
export async function lockCampaignFolder(outDir: string): Promise<() => Promise<void>> {
  const file = path.join(outDir, LOCK);
  return process.platform === 'linux' ? lockAbstract(outDir, file) : lockFile(outDir, file);
}
