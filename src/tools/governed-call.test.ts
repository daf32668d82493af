// The one governed tool call: one decision line and one metric sample per call whatever its outcome
// (allowed, denied for every reason — a tool not granted included — or refused for its arguments), no
// parameters in any line, and the running rules (throws become the generic failure, a cancelled call
// never starts, the lazy signal, one call at a time per owner for a tool that is not concurrency-safe).
import { describe, expect, it } from 'vitest';
import { createLogger } from '../platform/log/index.js';
import { ServiceMetrics } from '../platform/metrics/index.js';
import { resolveEnvelope, type ResolvedEnvelope } from '../platform/envelope/index.js';
import { GovernedCalls, TOOL_FAILURE_MESSAGE, type ApprovalAsk, type ApprovalVerdict, type GovernedCallRequest } from './governed-call.js';
import { ParameterValidator } from './parameter-validator.js';
import { ToolRegistry } from './registry.js';
import { toolBusy, toolFailure, toolSuccess, type Tool } from './tool.js';
import { NO_BUDGET } from '../platform/envelope/index.js';
import type { PolicyCall, PolicyGate, PolicyJudgement } from './policy-gate.js';

const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const envelopeOf = (tools: string[], autonomyCeiling: 'Autonomous' | 'Supervised' = 'Autonomous'): ResolvedEnvelope =>
  resolveEnvelope({ default: { allowedTools: tools, allowedMcpServers: [], autonomyCeiling, autoApproveUpTo: 'None', budget: NO_BUDGET }, bySubject: {}, byRole: {} }, { anonymous: true, subjectId: null, roles: [] });

const descriptor = (name: string, overrides: Partial<Tool['descriptor']> = {}): Tool['descriptor'] => ({
  name,
  description: name,
  operations: [{ name: 'say', description: 'say', parameters: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false } }],
  riskTier: 'Trivial',
  isReadOnly: true,
  isConcurrencySafe: true,
  isDirectlyInvocable: true,
  reachesNetwork: false,
  ...overrides,
});
const tool = (name: string, invoke: Tool['invoke'] = async () => toolSuccess('ok'), overrides: Partial<Tool['descriptor']> = {}): Tool => ({ descriptor: descriptor(name, overrides), invoke });

function governed(tools: Tool[], options: { readonly approvalsEnabled?: boolean; readonly policies?: PolicyGate } = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  const metrics = new ServiceMetrics({ enabled: true });
  const calls = new GovernedCalls({
    registry: new ToolRegistry(tools),
    validator: new ParameterValidator(),
    log: { info: (o, m) => logger.info(o, m), warn: (o, m) => logger.warn(o, m) },
    metrics,
    ...options,
  });
  const decisions = (): Record<string, unknown>[] => lines.filter((line) => line['event'] === 'tool.call.decided');
  const samples = (): Array<{ labels: Record<string, string>; value: number }> =>
    (metrics.toolCalls.get().values as Array<{ labels: Record<string, string>; value: number }>).filter((sample) => sample.value > 0);
  return { calls, lines, decisions, samples };
}

const request = (toolName: string, operation: string, parameters: Record<string, unknown>, overrides: Partial<GovernedCallRequest> = {}): GovernedCallRequest => ({
  surface: 'workflow',
  ownerId: 'sub:alice',
  envelope: envelopeOf(['echo', 'writer']),
  toolName,
  input: () => ({ operation, parameters }),
  signal: new AbortController().signal,
  ...overrides,
});

describe('the governed call: one decision, one line, one sample', () => {
  it('allows and runs a granted call, logging the decision without the parameters', async () => {
    const { calls, decisions, samples } = governed([tool('echo')]);
    await expect(calls.call(request('echo', 'say', { text: SECRET }))).resolves.toMatchObject({ status: 'succeeded', operation: 'say', output: 'ok' });
    expect(decisions()).toEqual([expect.objectContaining({ owner: 'sub:alice', tool: 'echo', operation: 'say', surface: 'workflow', verdict: 'allowed', denial: null, msg: 'tool call governed' })]);
    expect(JSON.stringify(decisions())).not.toContain(SECRET);
    expect(samples()).toEqual([expect.objectContaining({ labels: expect.objectContaining({ tool: 'echo', surface: 'workflow', outcome: 'succeeded' }), value: 1 })]);
  });

  it('denies a tool the envelope does not grant — one it lacks or one nobody offers — as a decision like any other, and never runs it', async () => {
    let ran = false;
    const { calls, decisions, samples } = governed([tool('echo'), tool('other', async () => ((ran = true), toolSuccess('ran')))]);
    await expect(calls.call(request('other', 'say', {}))).resolves.toMatchObject({ status: 'denied', denial: 'not-granted' });
    await expect(calls.call(request(`nosuch-${SECRET}`, 'say', {}))).resolves.toMatchObject({ status: 'denied', denial: 'not-granted' });
    expect(ran).toBe(false);
    expect(decisions()).toEqual([
      expect.objectContaining({ tool: 'other', operation: 'say', verdict: 'denied', denial: 'not-granted' }),
      expect.objectContaining({ tool: 'nosuch-[REDACTED]', verdict: 'denied', denial: 'not-granted' }),
    ]);
    expect(samples().map((s) => [s.labels['tool'], s.labels['outcome'], s.labels['rule'], s.value])).toEqual([
      ['other', 'denied', 'not_granted', 1],
      ['unknown', 'denied', 'not_granted', 1],
    ]);
  });

  it('denies a granted tool below an Autonomous ceiling, and one whose parameters carry a secret when it writes', async () => {
    const { calls, decisions, samples } = governed([tool('echo'), tool('writer', undefined, { isReadOnly: false })]);
    await expect(calls.call(request('echo', 'say', {}, { envelope: envelopeOf(['echo'], 'Supervised') }))).resolves.toMatchObject({ status: 'denied', denial: 'autonomy' });
    await expect(calls.call(request('writer', 'say', { text: SECRET }))).resolves.toMatchObject({ status: 'denied', denial: 'data-classification' });
    expect(decisions().map((d) => [d['tool'], d['verdict'], d['denial']])).toEqual([
      ['echo', 'denied', 'autonomy'],
      ['writer', 'denied', 'data-classification'],
    ]);
    expect(samples().map((s) => [s.labels['tool'], s.labels['outcome'], s.labels['rule']])).toEqual([
      ['echo', 'denied', 'autonomy'],
      ['writer', 'denied', 'data_classification'],
    ]);
  });

  it('refuses a call whose operation is undeclared or whose parameters break the schema, after one allowed decision, counting it refused', async () => {
    let ran = false;
    const { calls, decisions, samples } = governed([tool('echo', async () => ((ran = true), toolSuccess('ran')))]);
    await expect(calls.call(request('echo', `shout ${SECRET}`, {}))).resolves.toMatchObject({ status: 'refused', refusal: { kind: 'undeclared-operation', accepted: ['say'] } });
    await expect(calls.call(request('echo', 'say', { volume: 11 }))).resolves.toMatchObject({ status: 'refused', refusal: { kind: 'invalid-parameters' } });
    expect(ran).toBe(false);
    expect(decisions().map((d) => [d['operation'], d['verdict'], d['refusal']])).toEqual([
      ['shout [REDACTED]', 'allowed', 'undeclared-operation'],
      ['say', 'allowed', 'invalid-parameters'],
    ]);
    expect(samples().map((s) => [s.labels['outcome'], s.value])).toEqual([['refused', 2]]);
  });
});

describe('the governed call running a tool', () => {
  it('turns a tool that throws, synchronously or by rejecting, into the generic failure and logs it with secrets redacted', async () => {
    const token = SECRET;
    const thrower = tool('echo', () => {
      throw new Error(`boom ${token}`);
    });
    const rejecter = tool('writer', () => Promise.reject(new Error('later boom')));
    const { calls, lines, samples } = governed([thrower, rejecter]);
    for (const name of ['echo', 'writer']) {
      await expect(calls.call(request(name, 'say', {}))).resolves.toMatchObject({ status: 'failed', error: TOOL_FAILURE_MESSAGE });
    }
    expect(lines.filter((line) => line['msg'] === 'tool threw')).toHaveLength(2);
    expect(JSON.stringify(lines)).toContain('boom [REDACTED]');
    expect(JSON.stringify(lines)).not.toContain(token);
    expect(samples().map((s) => s.labels['outcome'])).toEqual(['failed', 'failed']);
  });

  it('answers a tool that answers at once (invokeNow) with the same outcome, line and sample, never calling its invoke', async () => {
    const invoked: string[] = [];
    const now = (name: string, answer: () => ReturnType<NonNullable<Tool['invokeNow']>>, overrides: Partial<Tool['descriptor']> = {}): Tool => ({
      ...tool(name, async () => (invoked.push(`${name}:invoke`), toolSuccess('late')), overrides),
      invokeNow: () => (invoked.push(`${name}:now`), answer()),
    });
    const { calls, decisions, samples, lines } = governed([
      now('echo', () => toolSuccess('at once')),
      now('writer', () => {
        throw new Error('sync boom');
      }),
    ]);
    await expect(calls.call(request('echo', 'say', {}))).resolves.toMatchObject({ status: 'succeeded', output: 'at once' });
    await expect(calls.call(request('writer', 'say', {}))).resolves.toMatchObject({ status: 'failed', error: TOOL_FAILURE_MESSAGE });
    expect(invoked).toEqual(['echo:now', 'writer:now']);
    expect(lines.filter((line) => line['msg'] === 'tool threw')).toHaveLength(1);
    expect(decisions().map((d) => [d['tool'], d['verdict']])).toEqual([['echo', 'allowed'], ['writer', 'allowed']]);
    expect(samples().map((sample) => sample.labels['outcome']).sort()).toEqual(['failed', 'succeeded']);
    // Cancelled before it starts: not started, whichever way the tool answers.
    const reason = new Error('run cancelled');
    await expect(calls.call(request('echo', 'say', {}, { signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
    expect(invoked).toHaveLength(2);
  });

  it('rejects with the error of a tool answering at once that threw as its call was cancelled, and runs a tool that is not concurrency-safe through invoke, one at a time', async () => {
    const controller = new AbortController();
    const invoked: string[] = [];
    const cancelling: Tool = {
      ...tool('echo'),
      invokeNow: () => {
        controller.abort(new Error('cancelled by the caller'));
        throw new Error('interrupted');
      },
    };
    const serial: Tool = { ...tool('writer', async () => (invoked.push('invoke'), toolSuccess('queued')), { isConcurrencySafe: false }), invokeNow: () => (invoked.push('now'), toolSuccess('now')) };
    const { calls } = governed([cancelling, serial]);
    await expect(calls.call(request('echo', 'say', {}, { signal: controller.signal }))).rejects.toThrow('interrupted');
    await expect(calls.call(request('writer', 'say', {}))).resolves.toMatchObject({ status: 'succeeded', output: 'queued' });
    expect(invoked).toEqual(['invoke']);
  });

  it('passes on that a tool refused a call as busy, so each surface can say so (429 for direct invocation)', async () => {
    const { calls } = governed([tool('echo', async () => toolBusy('too many waiting')), tool('writer', async () => toolFailure('broke'))]);
    await expect(calls.call(request('echo', 'say', {}))).resolves.toEqual(expect.objectContaining({ status: 'failed', error: 'too many waiting', busy: true }));
    const failed = await calls.call(request('writer', 'say', {}));
    expect(failed).toMatchObject({ status: 'failed', error: 'broke' });
    expect(failed).not.toHaveProperty('busy');
  });

  it('rejects with the abort reason when the call was aborted while the tool ran', async () => {
    const controller = new AbortController();
    const { calls } = governed([
      tool('echo', async () => {
        controller.abort(new Error('cancelled by the caller'));
        throw new Error('interrupted');
      }),
    ]);
    await expect(calls.call(request('echo', 'say', {}, { signal: controller.signal }))).rejects.toThrow('interrupted');
  });

  it('does not start a call that is already cancelled: rejects with the abort reason, the tool never runs', async () => {
    let ran = false;
    const { calls } = governed([tool('echo', async () => ((ran = true), toolSuccess('ran')))]);
    const reason = new Error('run cancelled');
    await expect(calls.call(request('echo', 'say', {}, { signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
    expect(ran).toBe(false);
  });

  it('asks a call that says whether it is cancelled, and reads its signal only when the tool does (a direct invocation builds it lazily)', async () => {
    let signalReads = 0;
    const controller = new AbortController();
    const reader = tool('writer', async (_operation, _parameters, context) => toolSuccess(String(context.signal.aborted)));
    const { calls } = governed([tool('echo'), reader]);
    const lazy = (name: string, cancelled: boolean): GovernedCallRequest => ({
      ...request(name, 'say', {}),
      get signal() {
        signalReads += 1;
        if (cancelled) controller.abort(new Error('gone'));
        return controller.signal;
      },
      cancelled: () => cancelled,
    });
    await expect(calls.call(lazy('echo', false))).resolves.toMatchObject({ status: 'succeeded', output: 'ok' });
    expect(signalReads).toBe(0);
    await expect(calls.call(lazy('writer', false))).resolves.toMatchObject({ status: 'succeeded', output: 'false' });
    expect(signalReads).toBe(1);
    await expect(calls.call(lazy('echo', true))).rejects.toThrow('gone');
  });

  it('offers a direct invocation only directly invocable tools: any other is not granted there', async () => {
    const { calls, decisions } = governed([tool('echo', undefined, { isDirectlyInvocable: false })]);
    await expect(calls.call(request('echo', 'say', {}, { surface: 'direct' }))).resolves.toMatchObject({ status: 'denied', denial: 'not-granted' });
    await expect(calls.call(request('echo', 'say', {}, { surface: 'bundle' }))).resolves.toMatchObject({ status: 'succeeded' });
    expect(decisions().map((d) => [d['surface'], d['verdict']])).toEqual([
      ['direct', 'denied'],
      ['bundle', 'allowed'],
    ]);
  });

  it('runs a tool that is not concurrency-safe one call at a time per owner', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const serial = tool(
      'echo',
      async (_operation, parameters) => {
        order.push(`start ${String(parameters['text'])}`);
        if (parameters['text'] === 'first') await gate;
        order.push(`end ${String(parameters['text'])}`);
        return toolSuccess('done');
      },
      { isConcurrencySafe: false },
    );
    const { calls } = governed([serial]);
    const first = calls.call(request('echo', 'say', { text: 'first' }));
    const second = calls.call(request('echo', 'say', { text: 'second' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['start first']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['start first', 'end first', 'start second', 'end second']);
  });

  it('runs a granted, checked call through the surface’s own execution when it brings one', async () => {
    const { calls, decisions } = governed([tool('echo', async () => toolSuccess('the tool'))]);
    const outcome = await calls.call(request('echo', 'say', { text: 'q' }), async (_tool, input) => toolSuccess(`read ${String(input.parameters['text'])}`));
    expect(outcome).toMatchObject({ status: 'succeeded', output: 'read q' });
    expect(decisions()).toHaveLength(1);
  });
});

describe('a call a person must approve (DESIGN.md §13)', () => {
  const supervised = envelopeOf(['echo'], 'Supervised');
  const asking = (verdict: ApprovalVerdict) => {
    const asked: ApprovalAsk[] = [];
    return { asked, supervisor: { ask: async (ask: ApprovalAsk) => (asked.push(ask), verdict) } };
  };

  it('asks the surface’s supervisor after checking the arguments, runs it once approved, and writes one line with the verdict', async () => {
    let ran = 0;
    const { calls, decisions } = governed([tool('echo', async () => (ran++, toolSuccess('ok')))], { approvalsEnabled: true });
    const { asked, supervisor } = asking({ approved: true, by: 'Vera' });
    await expect(calls.call(request('echo', 'say', { text: 'hi' }, { envelope: supervised, supervisor }))).resolves.toMatchObject({ status: 'succeeded' });
    expect(asked).toEqual([expect.objectContaining({ operation: 'say', parameters: { text: 'hi' }, rule: 'Supervised ceiling' })]);
    expect(ran).toBe(1);
    expect(decisions()).toEqual([expect.objectContaining({ verdict: 'allowed', denial: null, reason: expect.stringMatching(/approved by Vera$/) })]);
  });

  it('answers a rejected call as rejected and an expired one as expired, never running either', async () => {
    let ran = 0;
    const { calls, decisions, samples } = governed([tool('echo', async () => (ran++, toolSuccess('ok')))], { approvalsEnabled: true });
    for (const [verdict, status] of [
      [{ approved: false, expired: false }, 'rejected'],
      [{ approved: false, expired: true }, 'expired'],
    ] as const) {
      await expect(calls.call(request('echo', 'say', {}, { envelope: supervised, supervisor: asking(verdict).supervisor }))).resolves.toEqual({
        status,
        tool: expect.objectContaining({ descriptor: expect.objectContaining({ name: 'echo' }) }),
        operation: 'say',
      });
    }
    expect(ran).toBe(0);
    expect(decisions().map((d) => [d['verdict'], d['denial'], d['reason']])).toEqual([
      ['denied', 'approval', 'denied: rejected by an approver'],
      ['denied', 'approval', 'denied: the approval expired undecided'],
    ]);
    expect(samples()).toEqual([expect.objectContaining({ labels: expect.objectContaining({ outcome: 'denied', rule: 'approval' }), value: 2 })]);
  });

  it('answers a call its supervisor parks as parked, running nothing and writing no line yet', async () => {
    let ran = 0;
    const { calls, decisions, samples } = governed([tool('echo', async () => (ran++, toolSuccess('ok')))], { approvalsEnabled: true });
    const supervisor = { ask: async () => ({ parked: 'ap-1' }) };
    await expect(calls.call(request('echo', 'say', {}, { envelope: supervised, supervisor }))).resolves.toEqual({ status: 'parked', approvalId: 'ap-1' });
    expect(ran).toBe(0);
    expect(decisions()).toEqual([]);
    expect(samples()).toEqual([]);
  });

  it('refuses bad arguments without asking anyone, and denies a call whose surface cannot wait', async () => {
    const { calls } = governed([tool('echo')], { approvalsEnabled: true });
    const { asked, supervisor } = asking({ approved: true, by: 'Vera' });
    await expect(calls.call(request('echo', 'say', { nope: 1 }, { envelope: supervised, supervisor }))).resolves.toMatchObject({ status: 'refused' });
    expect(asked).toEqual([]);
    await expect(calls.call(request('echo', 'say', {}, { envelope: supervised, surface: 'direct' }))).resolves.toMatchObject({ status: 'denied', denial: 'approval' });
  });

  it('refuses Supervised like Restricted while approvals are off, supervisor or not', async () => {
    const { calls } = governed([tool('echo')]);
    const { asked, supervisor } = asking({ approved: true, by: 'Vera' });
    await expect(calls.call(request('echo', 'say', {}, { envelope: supervised, supervisor }))).resolves.toMatchObject({ status: 'denied', denial: 'autonomy' });
    expect(asked).toEqual([]);
  });
});

describe('the governed call with a policy layer (DESIGN.md §18)', () => {
  /** A policy layer answering `judgement` for every call, recording what it was asked and what ran. */
  const layer = (judgement: Omit<PolicyJudgement, 'version' | 'reason'> & { readonly reason?: string | null }) => {
    const judged: PolicyCall[] = [];
    const ran: PolicyCall[] = [];
    const policies: PolicyGate = {
      judge: async (call) => {
        judged.push(call);
        return { version: 'abc123def456', reason: null, ...judgement };
      },
      ran: async (call) => {
        ran.push(call);
      },
    };
    return { policies, judged, ran };
  };
  const supervisor = (verdict: ApprovalVerdict) => {
    const asked: ApprovalAsk[] = [];
    return { asked, supervisor: { ask: async (ask: ApprovalAsk) => (asked.push(ask), verdict) } };
  };

  it('denies a call a policy forbids, before the ceiling, and writes the policy object on the line; the run counters do not count it', async () => {
    const { policies, judged, ran } = layer({ decision: 'deny', determining: ['no-big-refunds'], errors: [], mode: 'Enforce' });
    const { calls, decisions } = governed([tool('echo')], { policies });
    await expect(calls.call(request('echo', 'say', { text: 'hi' }, { runId: 'job-1' }))).resolves.toMatchObject({ status: 'denied', denial: 'policy' });
    expect(judged).toEqual([expect.objectContaining({ tool: expect.objectContaining({ descriptor: expect.objectContaining({ name: 'echo' }) }), operation: 'say', parameters: { text: 'hi' }, runId: 'job-1', surface: 'workflow' })]);
    expect(ran).toEqual([]);
    expect(decisions()).toEqual([
      expect.objectContaining({ verdict: 'denied', denial: 'policy', reason: 'denied by policy: no-big-refunds', policy: { version: 'abc123def456', decision: 'deny', determining: ['no-big-refunds'], errors: [], mode: 'Enforce' } }),
    ]);
  });

  it('runs an allowed call and counts it in its run; a tool the envelope does not grant is never judged (policy null)', async () => {
    const { policies, judged, ran } = layer({ decision: 'allow', determining: ['p0'], errors: [], mode: 'Enforce' });
    const { calls, decisions } = governed([tool('echo'), tool('other')], { policies });
    await expect(calls.call(request('echo', 'say', {}, { runId: 'job-1' }))).resolves.toMatchObject({ status: 'succeeded' });
    await expect(calls.call(request('other', 'say', {}))).resolves.toMatchObject({ status: 'denied', denial: 'not-granted' });
    expect(judged).toHaveLength(1);
    expect(ran.map((call) => call.runId)).toEqual(['job-1']);
    expect(decisions().map((line) => line['policy'])).toEqual([{ version: 'abc123def456', decision: 'allow', determining: ['p0'], errors: [], mode: 'Enforce' }, null]);
  });

  it('asks a person for a call a policy asks about, with the policy as the approval\'s reason and the set\'s version, and runs it once approved', async () => {
    const { policies } = layer({ decision: 'ask', determining: ['large-refund'], errors: [], mode: 'Enforce' });
    const { calls, decisions } = governed([tool('echo')], { policies, approvalsEnabled: true });
    const person = supervisor({ approved: true, by: 'Vera' });
    await expect(calls.call(request('echo', 'say', {}, { supervisor: person.supervisor }))).resolves.toMatchObject({ status: 'succeeded' });
    expect(person.asked).toEqual([expect.objectContaining({ rule: 'policy large-refund', policyVersion: 'abc123def456' })]);
    expect(decisions()).toEqual([expect.objectContaining({ verdict: 'allowed', reason: expect.stringContaining('approved by Vera'), policy: expect.objectContaining({ decision: 'ask' }) })]);
  });

  it('denies an ask on a surface that cannot wait, or with approvals off, as an approval denial', async () => {
    const { policies } = layer({ decision: 'ask', determining: ['large-refund'], errors: [], mode: 'Enforce' });
    const off = governed([tool('echo')], { policies });
    const person = supervisor({ approved: true, by: 'Vera' });
    await expect(off.calls.call(request('echo', 'say', {}, { supervisor: person.supervisor }))).resolves.toMatchObject({ status: 'denied', denial: 'approval' });
    const on = governed([tool('echo')], { policies, approvalsEnabled: true });
    await expect(on.calls.call(request('echo', 'say', {}, { surface: 'direct' }))).resolves.toMatchObject({ status: 'denied', denial: 'approval' });
    expect(person.asked).toEqual([]);
  });

  it('in Shadow mode records what the policy would have done and enforces nothing: a deny runs, an ask runs without asking', async () => {
    for (const decision of ['deny', 'ask'] as const) {
      const { policies } = layer({ decision, determining: ['p1'], errors: [], mode: 'Shadow' });
      const { calls, decisions } = governed([tool('echo')], { policies, approvalsEnabled: true });
      const person = supervisor({ approved: false, expired: false });
      await expect(calls.call(request('echo', 'say', {}, { supervisor: person.supervisor }))).resolves.toMatchObject({ status: 'succeeded' });
      expect(person.asked).toEqual([]);
      expect(decisions()).toEqual([expect.objectContaining({ verdict: 'allowed', policy: expect.objectContaining({ decision, mode: 'Shadow' }) })]);
    }
  });

  it('names the policies that failed to evaluate in a denial (fail closed)', async () => {
    const { policies } = layer({ decision: 'deny', determining: [], errors: ['bad-decimal'], mode: 'Enforce' });
    const { calls, decisions } = governed([tool('echo')], { policies });
    await expect(calls.call(request('echo', 'say', {}))).resolves.toMatchObject({ status: 'denied', denial: 'policy' });
    expect(decisions()).toEqual([expect.objectContaining({ reason: 'denied by policy: bad-decimal failed to evaluate', policy: expect.objectContaining({ errors: ['bad-decimal'] }) })]);
  });
});
