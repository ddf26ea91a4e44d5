/**
 * The gh stand-in: answers as gh 2.78 does when its output is not a terminal, for the
 * pull-request steps of a workflow, and records every call in the repository's git
 * directory (`gh-stand-in/`). See README.md.
 */
import { runCall } from './run.js';

const result = runCall(process.argv.slice(2), process.cwd(), process.env);
if (result.stdout) process.stdout.write(result.stdout);
if (result.stderr) process.stderr.write(result.stderr);
process.exitCode = result.exitCode;
