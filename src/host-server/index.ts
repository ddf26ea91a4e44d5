/**
 * The lifecycle every host-side socket server shares (the model gateway, the gh recorder, the
 * model stand-in, the upstream simulator, evalrig view): options checked, room made for a socket,
 * listening with the socket's mode set, and one close that ends every connection and removes
 * the socket, safe to call twice and on every error path. Each step in its own file:
 * options.ts (before anything), room.ts (before binding), listen.ts (binding),
 * listening.ts (bound, until closed).
 *
 * ```ts
 * checkServerOptions('gh recorder', options, ['maxCalls', 'maxConnections']);
 * const listening = await listen(createServer(serve), {
 *   what: 'gh recorder',
 *   where: { socketPath: options.socketPath },
 * });
 * await listening.close();
 * ```
 */
export { checkServerOptions } from './options.js';
export { makeSocketRoom } from './room.js';
export { listen, ListenError, type ListenAddress, type ListenOptions } from './listen.js';
export type { ListeningServer } from './listening.js';
