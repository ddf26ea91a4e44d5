import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors/index.js';

const LOCK = '.evalrig.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the campaign folder for this process: two `evalrig run` into one
 * folder would redo each other's runs. A lock left by a process that died is
 * taken over. Returns the release function.
 */
export async function lockCampaignFolder(outDir: string): Promise<() => Promise<void>> {
  const file = path.join(outDir, LOCK);
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
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new InputError(
          `another evalrig (pid ${pid}) is writing to ${outDir}; wait for it or choose another --out`,
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new InputError(`cannot lock ${outDir} (${file})`);
}
