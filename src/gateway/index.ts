/**
 * The model gateway: one Unix socket per run, mounted into the container, through which the
 * agent's model calls (and nothing else) leave it. It forwards `POST /v1/messages` (or the
 * paths given) to the campaign's one upstream, adds the real key on the host side, refuses
 * everything else, and logs each call to the run's model-calls.jsonl; with `record`, it keeps
 * the bodies too: the run's flight record (src/flight), the witness of the session.
 *
 * ```ts
 * // host: mkdir -m 0711 /runs/r1/model
 * const gateway = await startModelGateway({
 *   socketPath: '/runs/r1/model/model.sock',
 *   upstream: { url: standIn.url },            // or { url: API origin, apiKey: process.env… }
 *   logPath: '/runs/r1/model-calls.jsonl',
 * });
 * // container: -v /runs/r1/model:/run/evalrig-model:ro,
 * //   ANTHROPIC_UNIX_SOCKET=/run/evalrig-model/model.sock ANTHROPIC_BASE_URL=http://localhost
 * //   ANTHROPIC_API_KEY=evalrig-placeholder
 * await gateway.close();
 * ```
 */
export { startModelGateway } from './server.js';
export { BodyBudget, CAMPAIGN_BODY_BUDGET } from './budget.js';
export type { CallTokens, ModelCall, RelayedCall } from '../flight/index.js';
export type { GatewayUpstream, ModelGateway, ModelGatewayOptions } from './types.js';
export { GATEWAY_SOCKET_NAME, openRunGateway, type ModelSource, type RunGateway } from './run.js';
export {
  UpstreamLimiter,
  UpstreamLimiters,
  learntLimits,
  retryAfterMs,
  type LimiterClock,
  type LimiterStats,
  type UpstreamLimits,
  type UpstreamTicket,
} from './limiter.js';
