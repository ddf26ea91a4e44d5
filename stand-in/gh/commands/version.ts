import type { Command } from './types.js';

/** The gh version the stand-in answers as. */
export const GH_VERSION = '2.78.0';
/** Its release date as `gh --version` prints it (the v2.78.0 tag's date, as real gh 2.78.0 prints it). */
export const GH_VERSION_DATE = '2025-08-21';

/** `gh --version` and `gh version`. */
export const version: Command = {
  spec: { name: '--version', use: '', flags: [] },
  run() {
    return {
      stdout: `gh version ${GH_VERSION} (${GH_VERSION_DATE})\nhttps://github.com/cli/cli/releases/tag/v${GH_VERSION}\n`,
    };
  },
};
