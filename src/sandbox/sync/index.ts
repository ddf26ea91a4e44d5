/**
 * The transport-neutral half of a copying provider: a tree's listing and the
 * delta between two, archives packed in, deltas applied to the host folder
 * (names checked, sizes capped, sparse files kept sparse), the tunnel's frames.
 * Nothing here knows Docker: a provider hands it bytes and streams.
 */
export * from './apply.js';
export * from './frames.js';
export * from './limits.js';
export * from './listing.js';
export * from './pack.js';
export * from './sparse.js';
export * from './tar-commands.js';
