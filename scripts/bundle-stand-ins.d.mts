/** The project's root folder. */
export const PROJECT_ROOT: string;
/** Bundles stand-in/<name>/main.ts into `outfile` (executable), as `npm run build` does. */
export function bundleStandIn(name: string, outfile: string): Promise<string>;

/** The reaper into `outfile`, its cluster sweep beside it (inside it when `together`). */
export function bundleReaper(outfile: string, options?: { together?: boolean }): Promise<string>;
