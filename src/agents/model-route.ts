/**
 * How an agent in a run's container reaches its model, the same for every adapter: the
 * gateway's folder (mounted read-only, its one socket inside), the relay that serves that
 * socket on the container's loopback to agents that speak only TCP, and the placeholder key
 * the agent is given (the real one stays on the host, in the gateway).
 */
export const MODEL_ROUTE = {
  dir: '/run/evalrig-model',
  socket: '/run/evalrig-model/model.sock',
  relay: '/opt/evalrig/relay/model-relay',
  /** The loopback port the relay listens on inside the container (network none). */
  relayPort: 18080,
} as const;

/** What the container is told for the key: the real one stays on the host, in the gateway. */
export const PLACEHOLDER_API_KEY = 'evalrig-placeholder-key';

/** The relay's argv prefix: it listens on the container's loopback, the agent after `--`. */
export function relayed(argv: readonly string[]): string[] {
  return [MODEL_ROUTE.relay, String(MODEL_ROUTE.relayPort), MODEL_ROUTE.socket, '--', ...argv];
}
