/**
 * What the Docker providers do over the Docker API: a file read out of a
 * container, an exec's streams, the shared files' volumes, the socket tunnel
 * over an exec.
 */
export * from './exec-stream.js';
export * from './file-cache.js';
export * from './read-file.js';
export * from './tunnel.js';
