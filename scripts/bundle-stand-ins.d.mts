/** The project's root folder. */
export const PROJECT_ROOT: string;
/** Bundles stand-in/<name>/main.ts into `outfile` (executable), as `npm run build` does. */
export function bundleStandIn(name: string, outfile: string): Promise<string>;
