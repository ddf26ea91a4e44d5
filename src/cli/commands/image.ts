import type { Command } from 'commander';
import { ensureTestImage } from '../../image/index.js';
import { connectDocker, pingDocker } from '../../runtime/index.js';

interface ImageBuildFlags {
  base?: string;
  force?: boolean;
}

/**
 * `evalrig image build [--base IMAGE] [--force]`: makes sure the test image
 * exists; prints its tag and whether it was built or reused. The builder's
 * progress goes to stderr.
 */
export function registerImage(program: Command): void {
  const image = program.command('image').description('the test image runs start from');
  image
    .command('build')
    .description('build the test image (docker/Dockerfile + the gh stand-in + the scripted agent)')
    .option(
      '--base <image>',
      'base image with node >= 18 and git (default: EVALRIG_BASE_IMAGE, else evalrig-base:bookworm when present, else node:20-bookworm)',
    )
    .option('--force', 'build even when an image with the same content exists (no cache)')
    .action(async (flags: ImageBuildFlags) => {
      const client = connectDocker();
      await pingDocker(client);
      const result = await ensureTestImage(client, { baseImage: flags.base, force: flags.force });
      const how = result.built ? 'built' : 'reused (already built, same content)';
      process.stdout.write(`${result.tag} ${how}\n`);
      process.stderr.write(`  base image: ${result.baseImage}\n  image id:   ${result.id}\n`);
    });
}
