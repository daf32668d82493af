// A ToolUse step's output: the tool's own value when it gives one (kept as is, never parsed again),
// else its text parsed; the secret check on the text whatever the tool answered before; and the
// output bounds, for values measured once as for any other.
import { describe, expect, it } from 'vitest';
import { NO_BUDGET, resolveEnvelope } from '../../platform/envelope/index.js';
import { GovernedCalls, ParameterValidator, ToolRegistry, type Tool, type ToolResult } from '../../tools/index.js';
import type { StepContext, StepOutcome } from '../engine/step-runner.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { boundOutputs } from './bound-outputs.js';
import { createToolUseRunner } from './tool-use-runner.js';

const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const envelope = resolveEnvelope(
  { default: { allowedTools: ['answer'], allowedMcpServers: [], autonomyCeiling: 'Autonomous', autoApproveUpTo: 'None', budget: NO_BUDGET }, bySubject: {}, byRole: {} },
  { anonymous: true, subjectId: null, roles: [] },
);

/** A tool that answers whatever the test puts in `next`. */
function answering(): { tool: Tool; next: { result: ToolResult } } {
  const next = { result: { ok: true, output: '{}' } as ToolResult };
  const tool: Tool = {
    descriptor: {
      name: 'answer',
      description: 'answers',
      operations: [{ name: 'get', description: 'get', parameters: { type: 'object', additionalProperties: false } }],
      riskTier: 'Trivial',
      isReadOnly: true,
      isConcurrencySafe: true,
      isDirectlyInvocable: true,
      reachesNetwork: false,
    },
    invoke: () => Promise.resolve(next.result),
  };
  return { tool, next };
}

function runner(tool: Tool, limits = { maxStepOutputBytes: 1_000, maxRunOutputBytes: 10_000 }) {
  const calls = new GovernedCalls({ registry: new ToolRegistry([tool]), validator: new ParameterValidator(), log: { info: () => undefined, warn: () => undefined } });
  const run = createToolUseRunner({ calls, ownerId: 'anon:x', runId: 'run-1', envelope, limits: { maxRenderedTemplateBytes: 1_000, maxStepOutputBytes: limits.maxStepOutputBytes } });
  const bounded = boundOutputs({ ToolUse: run } as never, limits) as unknown as { ToolUse: (context: StepContext) => Promise<StepOutcome> };
  const step = { index: 0, id: 's', name: 's', path: 's', type: 'ToolUse', configuration: { type: 'ToolUse', tool: 'answer', operation: 'get', parameters: {} }, successors: [], predecessorCount: 0 } as GraphStep;
  const context = { step, input: {}, steps: {}, signal: new AbortController().signal } as unknown as StepContext;
  return () => bounded.ToolUse(context);
}

describe("a ToolUse step's output", () => {
  it('keeps the value a tool gives with its text (the same frozen object), and parses a text given alone', async () => {
    const { tool, next } = answering();
    const step = runner(tool);
    const value = Object.freeze({ a: 1, b: 'two' });
    next.result = { ok: true, output: JSON.stringify(value), value };
    const kept = await step();
    expect(kept).toMatchObject({ ok: true });
    expect(kept.output).toBe(value);
    expect(kept.ok && kept.redacted).toBe(value); // nothing secret: its redacted form is itself
    next.result = { ok: true, output: '{"a":1,"b":"two"}' };
    const parsed = await step();
    expect(parsed.output).toEqual({ a: 1, b: 'two' });
    expect(parsed.output).not.toBe(value);
  });

  it('finds a secret in a text answered twice in a row, both times', async () => {
    const { tool, next } = answering();
    const step = runner(tool);
    next.result = { ok: true, output: JSON.stringify({ token: SECRET }) };
    for (let i = 0; i < 2; i += 1) {
      const outcome = await step();
      expect(outcome.ok && outcome.redacted).toBeUndefined(); // not decided clean: the recorder redacts it
    }
    next.result = { ok: true, output: '{"clean":true}' };
    const clean = await step();
    expect(clean.ok && clean.redacted).toEqual({ clean: true });
  });

  it('bounds a frozen value kept step after step: by the step bound each time, and by the run total as it adds up', async () => {
    const { tool, next } = answering();
    const step = runner(tool, { maxStepOutputBytes: 100, maxRunOutputBytes: 50 });
    const value = Object.freeze({ text: 'x'.repeat(10) }); // 21 bytes as JSON
    next.result = { ok: true, output: JSON.stringify(value), value };
    expect((await step()).ok).toBe(true);
    expect((await step()).ok).toBe(true);
    expect(await step()).toEqual({ ok: false, error: expect.stringContaining('50') as string }); // 63 > 50
    const large = Object.freeze({ text: 'y'.repeat(200) });
    next.result = { ok: true, output: JSON.stringify(large), value: large };
    const tooLarge = await runner(tool, { maxStepOutputBytes: 100, maxRunOutputBytes: 10_000 })();
    expect(tooLarge).toEqual({ ok: false, error: expect.stringContaining('100') as string });
  });
});
