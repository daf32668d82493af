// The step chains the chain benchmarks run (1,000 ToolUse `clock.now` steps, or LlmCall steps for
// `spend`): a service process that grants the clock to anonymous callers without rate limits, the
// chain's definition, and a JSON caller.
import { UNLIMITED } from './harness.mjs';
import { startServer } from './processes.mjs';

/**
 * The service as `portcullis serve` runs it (Development, anonymous), with room for `steps` steps;
 * `ai` adds AppConfig:AI sections (ChatModel, …) and `envelope` keys to the Default envelope (Budget).
 */
export function startChainServer(steps, storage, { ai = {}, envelope = {} } = {}) {
  return startServer({
    kind: 'portcullis',
    environment: 'Development',
    settings: {
      AppConfig: {
        ...(storage === undefined ? {} : { Storage: storage }),
        AI: {
          RateLimits: UNLIMITED,
          BundleExecution: { Auth: { AllowAnonymous: true }, Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous', ...envelope } } },
          Workflows: { MaxSteps: steps + 10 },
          ...ai,
        },
      },
    },
  });
}

/** `call(method, path, body?)`: the parsed JSON answer; throws on any status ≥ 300. */
export function jsonCaller(baseUrl) {
  const headers = { 'content-type': 'application/json' };
  return async function call(method, path, body) {
    const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
}

const CLOCK_NOW = { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} };

/** A straight chain s0 → s1 → … of steps configured alike (`clock.now` unless `configuration` says otherwise). */
export function chainDefinition(steps, configuration = CLOCK_NOW) {
  const names = Array.from({ length: steps }, (_, i) => `s${i}`);
  return {
    name: 'chain',
    steps: names.map((name) => ({ name, type: configuration.type, configuration })),
    edges: names.slice(1).map((to, i) => ({ from: names[i], to })),
  };
}
