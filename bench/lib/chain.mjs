// The 1,000-step ToolUse chain (`clock.now`) the chain benchmarks run: a service process that grants
// the clock to anonymous callers without rate limits, the chain's definition, and a JSON caller.
import { UNLIMITED } from './harness.mjs';
import { startServer } from './processes.mjs';

/** The service as `portcullis serve` runs it (Development, anonymous), with room for `steps` steps. */
export function startChainServer(steps, storage) {
  return startServer({
    kind: 'portcullis',
    environment: 'Development',
    settings: {
      AppConfig: {
        ...(storage === undefined ? {} : { Storage: storage }),
        AI: {
          RateLimits: UNLIMITED,
          BundleExecution: { Auth: { AllowAnonymous: true }, Envelopes: { Default: { AllowedTools: ['clock'], AutonomyCeiling: 'Autonomous' } } },
          Workflows: { MaxSteps: steps + 10 },
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

/** A straight chain s0 → s1 → … of `clock.now` steps. */
export function chainDefinition(steps) {
  const names = Array.from({ length: steps }, (_, i) => `s${i}`);
  return {
    name: 'chain',
    steps: names.map((name) => ({ name, type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'clock', operation: 'now', parameters: {} } })),
    edges: names.slice(1).map((to, i) => ({ from: names[i], to })),
  };
}
