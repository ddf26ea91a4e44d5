/**
 * The model stand-in: a scripted fake of the Anthropic Messages API (`POST /v1/messages`), of
 * the OpenAI Responses API (`POST /v1/responses`), of OpenAI Chat Completions
 * (`POST /v1/chat/completions`) and of the Gemini API (`POST /v1beta/models/{model}:generateContent`
 * and `:streamGenerateContent?alt=sse`), all played from the same script, that real agent binaries
 * talk to with no key and no network. A script lists one answer per model request, in order
 * (text, tool_use, thinking and server tool blocks with usage numbers, or an error answer: 400,
 * 401, 403, 404, 413, 429, 500, 503, 529); a
 * response with `"when": { "contains": [...] }` answers only a request whose text holds those
 * strings (the first not played that fits answers); see model-script.schema.json.
 *
 * ```ts
 * const standIn = await startModelStandIn({
 *   script: await loadModelScript('model-script.json'),
 *   listen: { port: 0 },
 * });
 * // ANTHROPIC_BASE_URL=standIn.url claude -p "…"
 * standIn.requests(); // what the agent sent, with its tool results
 * await standIn.close();
 * ```
 */
export { startModelStandIn } from './server.js';
export type { ModelStandIn, ModelStandInOptions, StandInListen } from './server.js';
export type { StandInRequest } from './request.js';
export { requestText, ScriptPlayer, type Pick, type PickHow } from './player.js';
export { checkModelScript, loadModelScript, ModelScriptError } from './script.js';
export type {
  ModelScript,
  ScriptBlock,
  ScriptErrorAnswer,
  ScriptMessage,
  ScriptResponse,
  ScriptUsage,
  ScriptWhen,
  StopReason,
} from './script.js';
export { apiMessage, sseFrames } from './anthropic.js';
export { responsesFrames, responsesObject } from './openai.js';
export { chatCompletion, chatError, chatFrames } from './chat.js';
export { geminiError, geminiFrames, geminiResponse } from './gemini.js';
export {
  startUpstreamSimulator,
  type UpstreamServed,
  type UpstreamSimulator,
  type UpstreamSimulatorOptions,
  type UpstreamTimeline,
} from './upstream.js';
