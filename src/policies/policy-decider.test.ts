import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cedarSchemaFor } from './policy-schema.js';
import { loadPolicySet } from './policy-set.js';
import { NO_PERMIT, PolicyDecider } from './policy-decider.js';
import type { PolicyRequest } from './policy-request.js';
import { policyFolder, refundTool, testTools, toolNamed, type PolicyFolder } from './policy-test-catalog.js';
import { LIKE_WORK_BUDGET } from './policy-bounds.js';

const schema = cedarSchemaFor(testTools);
let folder: PolicyFolder;
let files = 0;
beforeAll(async () => {
  folder = await policyFolder();
});
afterAll(async () => folder.remove());

async function deciderFor(text: string): Promise<PolicyDecider> {
  const file = await folder.write(`set${(files += 1)}.cedar`, text);
  const load = await loadPolicySet([file], folder.dir, schema);
  if (!load.ok) throw new Error(JSON.stringify(load.errors));
  return new PolicyDecider(load.set);
}

function call(tool: string, operation: string, args: unknown, overrides: Partial<PolicyRequest> = {}): PolicyRequest {
  return {
    principal: { ownerId: 'sub:alice', subject: 'alice', roles: ['support'], claims: { department: 'finance', email: 'alice@example.com' } },
    tool: toolNamed(tool),
    operation,
    surface: 'bundle',
    bundleId: 'triage-desk',
    run: { toolCalls: 2, callsOfThisTool: 1, spentMicroUsd: 1500 },
    utcHour: 14,
    arguments: args,
    ...overrides,
  };
}

const refund = (args: unknown, overrides: Partial<PolicyRequest> = {}) => call(refundTool.descriptor.name, 'call', args, overrides);

const REFUNDS = `
@id("refund-small")
permit(principal in Portcullis::Role::"support", action == Portcullis::Action::"mcp__payments__refund.call", resource)
  when { context.arguments.amount.lessThanOrEqual(decimal("100.0")) };

@id("refund-large")
@approval("required")
permit(principal in Portcullis::Role::"support", action == Portcullis::Action::"mcp__payments__refund.call", resource)
  when { context.arguments.amount.greaterThan(decimal("100.0")) };

@id("refund-cap")
forbid(principal, action == Portcullis::Action::"mcp__payments__refund.call", resource)
  when { context.arguments.amount.greaterThan(decimal("5000.0")) };
`;

describe('PolicyDecider', () => {
  it('allows when a permit matches and no forbid does, naming the permit', async () => {
    const decider = await deciderFor(REFUNDS);
    expect(decider.decide(refund({ order: 'A-1', amount: 40 }))).toEqual({ decision: 'allow', determining: ['refund-small'], errors: [], reason: null });
  });

  it('asks when a matching permit is annotated @approval("required")', async () => {
    const decider = await deciderFor(REFUNDS);
    expect(decider.decide(refund({ order: 'A-1', amount: 250.75 }))).toEqual({
      decision: 'ask',
      determining: ['refund-large'],
      errors: [],
      reason: 'Policy "refund-large" requires a person\'s approval.',
    });
  });

  it('asks when any of several matching permits asks', async () => {
    const decider = await deciderFor(`${REFUNDS}\n@id("support-any") permit(principal in Portcullis::Role::"support", action, resource);`);
    expect(decider.decide(refund({ order: 'A-1', amount: 250 }))).toMatchObject({ decision: 'ask', determining: ['refund-large', 'support-any'] });
    expect(decider.decide(refund({ order: 'A-1', amount: 25 }))).toMatchObject({ decision: 'allow', determining: ['refund-small', 'support-any'] });
  });

  it('lets a forbid override any permit, an asking one included', async () => {
    const decider = await deciderFor(REFUNDS);
    expect(decider.decide(refund({ order: 'A-1', amount: 9000 }))).toEqual({ decision: 'deny', determining: ['refund-cap'], errors: [], reason: 'Denied by policy "refund-cap".' });
  });

  it('denies when no permit matches', async () => {
    const decider = await deciderFor(REFUNDS);
    expect(decider.decide(refund({ order: 'A-1', amount: 40 }, { principal: { ownerId: 'sub:bob', subject: 'bob', roles: [], claims: {} } }))).toEqual({
      decision: 'deny',
      determining: [],
      errors: [],
      reason: NO_PERMIT,
    });
    expect(decider.decide(call('clock', 'now', {}))).toMatchObject({ decision: 'deny', reason: NO_PERMIT });
  });

  it('denies when a policy fails to evaluate (Long overflow at run time), naming it, even though a permit matched', async () => {
    const decider = await deciderFor(`
      @id("open") permit(principal, action, resource);
      @id("overflow") forbid(principal, action, resource) when { context.run.toolCalls * 1000000000000 * 1000000000 > 0 };
    `);
    expect(decider.decide(call('clock', 'now', {}, { run: { toolCalls: 0, callsOfThisTool: 0, spentMicroUsd: 0 } }))).toMatchObject({ decision: 'allow', errors: [] });
    expect(decider.decide(call('clock', 'now', {}, { run: { toolCalls: 50, callsOfThisTool: 0, spentMicroUsd: 0 } }))).toEqual({
      decision: 'deny',
      determining: [],
      errors: ['overflow'],
      reason: 'Policy "overflow" failed to evaluate for this call, so it is denied.',
    });
  });

  it('denies without asking Cedar when the arguments cannot be mapped exactly', async () => {
    const decider = await deciderFor(REFUNDS);
    expect(decider.decide(refund({ order: 'A-1', amount: 100.00001 }))).toEqual({
      decision: 'deny',
      determining: [],
      errors: [],
      reason: 'The argument `amount` has more than 4 decimal places, which policies cannot compare exactly.',
    });
    expect(decider.decide(refund({ order: 'A-1', amount: Number.NaN }))).toMatchObject({ decision: 'deny', reason: 'The argument `amount` is not a finite number.' });
  });

  it('denies an operation the schema does not know (an MCP tool listed after the set was loaded)', async () => {
    const decider = await deciderFor('permit(principal, action, resource);');
    const unknown = { server: 'crm', descriptor: { ...refundTool.descriptor, name: 'mcp__crm__lookup' } };
    expect(decider.decide({ ...refund({}), tool: unknown })).toEqual({
      decision: 'deny',
      determining: [],
      errors: [],
      reason: 'The policy schema has no action "mcp__crm__lookup.call", so no policy can permit the call.',
    });
    expect(decider.decide(call('clock', 'tick', {}))).toMatchObject({ decision: 'deny', reason: expect.stringContaining('"clock.tick"') });
  });

  it('sees the caller: subject, roles as parents, string claims as tags', async () => {
    const decider = await deciderFor(`
      @id("finance") permit(principal, action == Portcullis::Action::"clock.now", resource)
        when { principal.hasTag("department") && principal.getTag("department") == "finance" };
      @id("alice") permit(principal, action == Portcullis::Action::"calculator.evaluate", resource) when { principal.subject == "alice" };
      @id("auditors") permit(principal in Portcullis::Role::"auditor", action == Portcullis::Action::"text.diff", resource);
    `);
    const bob = { ownerId: 'sub:bob', subject: 'bob', roles: ['auditor'], claims: { department: 'sales' } };
    expect(decider.decide(call('clock', 'now', {})).decision).toBe('allow');
    expect(decider.decide(call('clock', 'now', {}, { principal: bob })).decision).toBe('deny');
    expect(decider.decide(call('calculator', 'evaluate', { expression: '1' })).decision).toBe('allow');
    expect(decider.decide(call('calculator', 'evaluate', { expression: '1' }, { principal: bob })).decision).toBe('deny');
    expect(decider.decide(call('text', 'diff', { before: '', after: '' }, { principal: bob })).decision).toBe('allow');
    expect(decider.decide(call('text', 'diff', { before: '', after: '' })).decision).toBe('deny');
  });

  it('sees the tool (riskTier, server, readOnly) and the call facts (surface, bundleId, run, utcHour)', async () => {
    const decider = await deciderFor(`
      permit(principal, action in Portcullis::Action::"call", resource)
        when { resource.readOnly && resource.riskTier == "Trivial" && resource.server == "" && context.utcHour >= 9 && context.utcHour < 17 };
      permit(principal, action, resource)
        when { resource.server == "payments" && context.surface == "bundle" && context.bundleId == "triage-desk" && context.run.callsOfThisTool < 3 && context.run.spentMicroUsd < 5000 && context.run.toolCalls < 10 };
    `);
    expect(decider.decide(call('clock', 'now', {})).decision).toBe('allow');
    expect(decider.decide(call('clock', 'now', {}, { utcHour: 20 })).decision).toBe('deny');
    expect(decider.decide(call('http_fetch', 'get', { url: 'https://x' })).decision).toBe('deny');
    expect(decider.decide(refund({ order: 'A', amount: 1 })).decision).toBe('allow');
    expect(decider.decide(refund({ order: 'A', amount: 1 }, { surface: 'direct' })).decision).toBe('deny');
    expect(decider.decide(refund({ order: 'A', amount: 1 }, { run: { toolCalls: 3, callsOfThisTool: 3, spentMicroUsd: 0 } })).decision).toBe('deny');
  });

  it('compares records whole correctly (every attribute is handed over when a policy compares records)', async () => {
    const decider = await deciderFor(`
      permit(principal, action == Portcullis::Action::"mcp__payments__refund.call", resource)
        when { context.arguments has customer && context.arguments.customer == {"id": "c1", "tier": "gold"} };
    `);
    expect(decider.decide(refund({ order: 'A', amount: 1, customer: { id: 'c1', tier: 'gold' } })).decision).toBe('allow');
    expect(decider.decide(refund({ order: 'A', amount: 1, customer: { id: 'c1', tier: 'silver' } })).decision).toBe('deny');
    expect(decider.decide(refund({ order: 'A', amount: 1, customer: { id: 'c2', tier: 'gold' } })).decision).toBe('deny');
  });

  it('does not walk arguments no policy reads: a huge unread list neither slows nor refuses the call', async () => {
    const decider = await deciderFor('permit(principal, action == Portcullis::Action::"mcp__payments__refund.call", resource) when { context.arguments.order like "A-*" };');
    let reads = 0;
    const reasons = new Proxy(new Array<string>(1_000_000).fill('r'), {
      get(target, key, receiver) {
        reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(decider.decide(refund({ order: 'A-1', amount: 1, reasons })).decision).toBe('allow');
    expect(reads).toBe(0); // not one element, not even its length
  });

  it(`denies a call whose text would make a \`like\` exceed ${LIKE_WORK_BUDGET} steps, and allows the same call with shorter text`, async () => {
    const decider = await deciderFor(`permit(principal, action == Portcullis::Action::"mcp__payments__refund.call", resource) unless { context.arguments.order like "*${'x'.repeat(500)}*" };`);
    expect(decider.decide(refund({ order: 'o'.repeat(1_000), amount: 1 })).decision).toBe('allow');
    expect(decider.decide(refund({ order: 'o'.repeat(10_000), amount: 1 }))).toEqual({
      decision: 'deny',
      determining: [],
      errors: [],
      reason: "The call's text is too long for this policy set's `like` patterns to be checked in time.",
    });
  });

  it('denies rather than guesses when the run counters are not whole numbers', async () => {
    const decider = await deciderFor('permit(principal, action, resource);');
    expect(decider.decide(call('clock', 'now', {}, { utcHour: Number.NaN })).decision).toBe('deny');
    expect(decider.decide(call('clock', 'now', {}, { run: { toolCalls: -1, callsOfThisTool: 0, spentMicroUsd: 0 } })).decision).toBe('deny');
  });

  it('gives the same answers with a policy scoped to another tool whose condition would fail (scope is checked first)', async () => {
    const decider = await deciderFor(`
      permit(principal, action, resource);
      forbid(principal, action, resource == Portcullis::Tool::"clock") when { context.run.toolCalls * 1000000000000 * 1000000000 > 0 };
    `);
    const busy = { toolCalls: 99, callsOfThisTool: 0, spentMicroUsd: 0 };
    expect(decider.decide(call('calculator', 'evaluate', { expression: '1' }, { run: busy })).decision).toBe('allow');
    expect(decider.decide(call('clock', 'now', {}, { run: busy }))).toMatchObject({ decision: 'deny', errors: ['policy1'] });
  });

  it('keeps a decision against 1,000 policies that all apply well under the 100 ms event-loop bound', async () => {
    const text = Array.from(
      { length: 1_000 },
      (_, i) => `permit(principal in Portcullis::Role::"r${i}", action in Portcullis::Action::"call", resource) when { context.utcHour != ${i} && principal.hasTag("t${i}") };`,
    ).join('\n');
    const decider = await deciderFor(text);
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      expect(decider.decide(call('clock', 'now', {})).decision).toBe('deny');
      best = Math.min(best, performance.now() - started);
    }
    expect(best).toBeLessThan(100);
  }, 60_000);
});
