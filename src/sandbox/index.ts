/**
 * Where runs execute, behind one narrow interface: a SandboxProvider starts
 * Sandboxes (exec, read and write files, copy in, sync out, stop, remove).
 * campaign/ and collect/ speak only this.
 */
export { SandboxError, SandboxFileError } from './errors.js';
export type {
  Owner,
  Sandbox,
  SandboxFile,
  SandboxImage,
  SandboxProvider,
  SandboxSpec,
  SharedFile,
  SharedFolder,
  SharedSockets,
  SyncStats,
} from './types.js';
