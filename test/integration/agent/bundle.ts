/**
 * Tests bundle a stand-in into a temporary folder of theirs, exactly as
 * `npm run build` does, instead of depending on a build of the whole project.
 */
export { PROJECT_ROOT, bundleStandIn } from '../../../scripts/bundle-stand-ins.mjs';
