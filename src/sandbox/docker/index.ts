/**
 * The Docker provider (provider.ts) with its two file strategies, mounted
 * (mounted.ts) and copied (copied.ts, copied-files.ts), and what they do over
 * the Docker API: a file read out of a container, an exec's streams, the
 * shared files' volumes, the socket tunnel over an exec.
 */
export * from './copied.js';
export * from './copied-files.js';
export * from './exec-stream.js';
export * from './file-cache.js';
export * from './mounted.js';
export * from './presets.js';
export * from './provider.js';
export * from './read-file.js';
export * from './sandbox.js';
export * from './services/index.js';
export * from './strategy.js';
export * from './tunnel.js';
