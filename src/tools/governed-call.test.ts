import { describe, expect, it } from 'vitest';
import { createLogger } from '../platform/log/index.js';
import { resolveEnvelope } from '../platform/envelope/index.js';
import { TOOL_FAILURE_MESSAGE, ToolGovernor } from './governor.js';
import { toolSuccess, type Tool } from './tool.js';

const SECRET = 'sk-live-0123456789abcdefghijklmnopqrstuv';
const envelope = resolveEnvelope(
  { default: { allowedTools: ['echo'], allowedMcpServers: [], autonomyCeiling: 'Autonomous' }, bySubject: {}, byRole: {} },
  { anonymous: true, subjectId: null, roles: [] },
);
const echo: Tool = {
  descriptor: {
    name: 'echo',
    description: 'echo',
    operations: [{ name: 'say', description: 'say', parameters: { type: 'object' } }],
    riskTier: 'Trivial',
    isReadOnly: true,
    isConcurrencySafe: true,
    isDirectlyInvocable: true,
    reachesNetwork: false,
  },
  invoke: async () => toolSuccess('ok'),
};

function governorWithLog() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  const governor = new ToolGovernor({ log: { info: (o, m) => logger.info(o, m), warn: (o, m) => logger.warn(o, m) } });
  return { governor, lines };
}

const call = (operation: string) => ({ ownerId: 'sub:alice', envelope, tool: echo, operation, parameters: { text: SECRET }, signal: new AbortController().signal, surface: 'direct' as const });

describe('the governor decision log', () => {
  it('logs each decision with owner, tool, operation, surface, verdict and rule, never the parameters', async () => {
    const { governor, lines } = governorWithLog();
    await governor.execute(call('say'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ owner: 'sub:alice', tool: 'echo', operation: 'say', surface: 'direct', verdict: 'allowed', msg: 'tool call governed' });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('redacts an operation name the tool does not declare (model or caller text)', async () => {
    const { governor, lines } = governorWithLog();
    governor.authorize(call(`token=${SECRET}`));
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(lines[0]).toMatchObject({ operation: 'token=[REDACTED]' });
  });
});

describe('the governor running a tool', () => {
  const failing = (invoke: Tool['invoke'], overrides: Partial<Tool['descriptor']> = {}): Tool => ({ descriptor: { ...echo.descriptor, ...overrides }, invoke });

  it('turns a tool that throws, synchronously or by rejecting, into the generic failure and logs it with secrets redacted', async () => {
    const { governor, lines } = governorWithLog();
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
    const thrower = failing(() => {
      throw new Error(`boom ${token}`);
    });
    const rejecter = failing(() => Promise.reject(new Error('later boom')));
    for (const tool of [thrower, rejecter]) {
      await expect(governor.execute({ ...call('say'), tool })).resolves.toEqual({ status: 'completed', result: { ok: false, error: TOOL_FAILURE_MESSAGE } });
    }
    expect(lines.filter((line) => line['msg'] === 'tool threw')).toHaveLength(2);
    expect(JSON.stringify(lines)).toContain('boom [REDACTED]');
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it('rejects with the abort reason when the call was aborted while the tool ran', async () => {
    const { governor } = governorWithLog();
    const controller = new AbortController();
    const tool = failing(async () => {
      controller.abort(new Error('cancelled by the caller'));
      throw new Error('interrupted');
    });
    await expect(governor.execute({ ...call('say'), tool, signal: controller.signal })).rejects.toThrow('interrupted');
  });

  it('does not start a call that is already cancelled: rejects with the abort reason, the tool never runs', async () => {
    const { governor } = governorWithLog();
    let ran = false;
    const tool = failing(async () => {
      ran = true;
      return toolSuccess('ran');
    });
    const reason = new Error('run cancelled');
    await expect(governor.execute({ ...call('say'), tool, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(ran).toBe(false);
  });

  it('asks a call that says whether it is cancelled, and reads its signal only when the tool does (a direct invocation builds it lazily)', async () => {
    const { governor } = governorWithLog();
    let signalReads = 0;
    const controller = new AbortController();
    const lazy = (cancelled: boolean, tool: Tool) => ({
      ...call('say'),
      tool,
      get signal() {
        signalReads += 1;
        if (cancelled) controller.abort(new Error('gone'));
        return controller.signal;
      },
      cancelled: () => cancelled,
    });
    await expect(governor.execute(lazy(false, echo))).resolves.toEqual({ status: 'completed', result: { ok: true, output: 'ok' } });
    expect(signalReads).toBe(0);
    const reader = failing(async (_operation, _parameters, context) => toolSuccess(String(context.signal.aborted)));
    await expect(governor.execute(lazy(false, reader))).resolves.toEqual({ status: 'completed', result: { ok: true, output: 'false' } });
    expect(signalReads).toBe(1);
    await expect(governor.execute(lazy(true, echo))).rejects.toThrow('gone');
  });

  it('denies a tool outside the envelope without running it', async () => {
    const { governor, lines } = governorWithLog();
    let ran = false;
    const other = failing(
      async () => {
        ran = true;
        return toolSuccess('ran');
      },
      { name: 'other' },
    );
    await expect(governor.execute({ ...call('say'), tool: other })).resolves.toMatchObject({ status: 'denied', denial: 'not-granted' });
    expect(ran).toBe(false);
    expect(lines[0]).toMatchObject({ tool: 'other', verdict: 'denied', denial: 'not-granted' });
  });

  it('runs a tool that is not concurrency-safe one call at a time per owner', async () => {
    const { governor } = governorWithLog();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const serial = failing(
      async (_operation, parameters) => {
        order.push(`start ${String(parameters['text'])}`);
        if (parameters['text'] === 'first') await gate;
        order.push(`end ${String(parameters['text'])}`);
        return toolSuccess('done');
      },
      { isConcurrencySafe: false },
    );
    const first = governor.execute({ ...call('say'), tool: serial, parameters: { text: 'first' } });
    const second = governor.execute({ ...call('say'), tool: serial, parameters: { text: 'second' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['start first']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['start first', 'end first', 'start second', 'end second']);
  });
});
