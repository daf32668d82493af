import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_POLICIES, MAX_POLICY_TEXT_BYTES } from './policy-bounds.js';
import { cedarSchemaFor } from './policy-schema.js';
import { loadPolicySet, revalidatePolicySet, type PolicySetLoad } from './policy-set.js';
import { policyFolder, refundTool, testTools, type PolicyFolder } from './policy-test-catalog.js';

const schema = cedarSchemaFor(testTools);
let folder: PolicyFolder;
beforeEach(async () => {
  folder = await policyFolder();
});
afterEach(async () => folder.remove());

const ALLOW_CLOCK = 'permit(principal, action == Portcullis::Action::"clock.now", resource);\n';

function errorsOf(load: PolicySetLoad) {
  if (load.ok) throw new Error('the set loaded');
  return load.errors;
}

function setOf(load: PolicySetLoad) {
  if (!load.ok) throw new Error(`the set was refused: ${JSON.stringify(load.errors)}`);
  return load.set;
}

describe('loadPolicySet', () => {
  it('gives ids as §18 says (@id, else policy<N> counting across the set in order) and reads @approval', async () => {
    const a = await folder.write('a.cedar', `${ALLOW_CLOCK}\n@id("fetch-allow")\npermit(principal, action == Portcullis::Action::"http_fetch.get", resource)\n  when { context.arguments.url like "https://api.example.com/*" };\n`);
    const b = await folder.write('b.cedar', '// limits\n@approval("required")\npermit(principal, action == Portcullis::Action::"mcp__payments__refund.call", resource);\nforbid(principal, action, resource) when { context.run.callsOfThisTool >= 3 };\n');
    const set = setOf(await loadPolicySet([a, b], folder.dir, schema));
    expect(set.policies.map(({ id, cedarId, effect, approval, file, line }) => ({ id, cedarId, effect, approval, file, line }))).toEqual([
      { id: 'policy0', cedarId: 'policy0', effect: 'permit', approval: false, file: 'a.cedar', line: 1 },
      { id: 'fetch-allow', cedarId: 'policy1', effect: 'permit', approval: false, file: 'a.cedar', line: 3 },
      { id: 'policy2', cedarId: 'policy2', effect: 'permit', approval: true, file: 'b.cedar', line: 2 },
      { id: 'policy3', cedarId: 'policy3', effect: 'forbid', approval: false, file: 'b.cedar', line: 4 },
    ]);
    expect(set.warnings).toEqual([]);
  });

  it('keeps source order past ten policies in a file (Cedar hands them back sorted as text: policy10 before policy2)', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `@id("p${i}") permit(principal, action == Portcullis::Action::"clock.now", resource) when { context.utcHour != ${i} };`).join('\n');
    const set = setOf(await loadPolicySet([await folder.write('many.cedar', text)], folder.dir, schema));
    expect(set.policies.map((policy) => [policy.id, policy.cedarId, policy.line])).toEqual(Array.from({ length: 12 }, (_, i) => [`p${i}`, `policy${i}`, i + 1]));
  });

  it('versions the set as the first 12 hex digits of SHA-256 over the files concatenated in configured order', async () => {
    const a = await folder.write('a.cedar', ALLOW_CLOCK);
    const b = await folder.write('b.cedar', 'forbid(principal, action, resource) when { context.utcHour < 6 };');
    const expected = (first: string, second: string) => createHash('sha256').update(first).update(second).digest('hex').slice(0, 12);
    const ab = setOf(await loadPolicySet([a, b], folder.dir, schema));
    const ba = setOf(await loadPolicySet([b, a], folder.dir, schema));
    expect(ab.version).toBe(expected(ALLOW_CLOCK, 'forbid(principal, action, resource) when { context.utcHour < 6 };'));
    expect(ab.version).toMatch(/^[0-9a-f]{12}$/);
    expect(ba.version).not.toBe(ab.version);
  });

  it('reads absolute paths and paths relative to cwd', async () => {
    await folder.write('a.cedar', ALLOW_CLOCK);
    const set = setOf(await loadPolicySet([join(folder.dir, 'a.cedar')], '/', schema));
    expect(set.files).toEqual([join(folder.dir, 'a.cedar')]);
  });

  it('names the file, the line and Cedar\'s message for a parse error on line 3 of the second file', async () => {
    const a = await folder.write('a.cedar', ALLOW_CLOCK);
    const b = await folder.write('b.cedar', '// résumé: ünïcode before the error counts in bytes\npermit(principal, action, resource)\n  when { context.utcHour > };\n');
    const errors = errorsOf(await loadPolicySet([a, b], folder.dir, schema));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'b.cedar', line: 3 });
    expect(errors[0]?.message).toMatch(/^unexpected token `}`/);
  });

  it('refuses in strict mode a policy that reads an argument the operation does not have', async () => {
    const a = await folder.write('a.cedar', `${ALLOW_CLOCK}permit(principal, action == Portcullis::Action::"http_fetch.get", resource)\n  when { context.arguments.nope == "x" };\n`);
    const errors = errorsOf(await loadPolicySet([a], folder.dir, schema));
    expect(errors).toEqual([{ file: 'a.cedar', line: 3, message: expect.stringMatching(/attribute `arguments\.nope` in context for Portcullis::Action::"http_fetch\.get" not found/) }]);
  });

  it('refuses in strict mode a policy that compares a String with a Long', async () => {
    const a = await folder.write('a.cedar', '\n\npermit(principal, action == Portcullis::Action::"http_fetch.get", resource) when { context.arguments.url == 1 };\n');
    const errors = errorsOf(await loadPolicySet([a], folder.dir, schema));
    expect(errors).toEqual([{ file: 'a.cedar', line: 3, message: expect.stringMatching(/the types Long and String are not compatible/) }]);
  });

  it('reports every invalid file at once', async () => {
    const a = await folder.write('a.cedar', 'permit(principal, action == Portcullis::Action::"clock.now", resource) when { context.nope };');
    const b = await folder.write('b.cedar', 'permit(');
    const errors = errorsOf(await loadPolicySet([a, b], folder.dir, schema));
    expect(errors.map((error) => [error.file, error.line])).toEqual([['a.cedar', 1], ['b.cedar', 1]]);
  });

  it('says a mistake in a policy for every action once, counting the actions it was found for', async () => {
    const a = await folder.write('a.cedar', 'permit(principal, action, resource) when { context.nope };');
    const errors = errorsOf(await loadPolicySet([a], folder.dir, schema));
    const actions = Object.keys(schema.Portcullis.actions).length - 1;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'a.cedar', line: 1 });
    expect(errors[0]?.message).toContain('attribute `nope` in context for Portcullis::Action::');
    expect(errors[0]?.message).toMatch(new RegExp(`\\(and the same for ${actions - 1} more actions\\)$`));
  });

  it('refuses duplicate @ids across files, naming both places', async () => {
    const a = await folder.write('a.cedar', `@id("hours")\n${ALLOW_CLOCK}`);
    const b = await folder.write('b.cedar', `\n@id("hours")\n${ALLOW_CLOCK}`);
    expect(errorsOf(await loadPolicySet([a, b], folder.dir, schema))).toEqual([
      { file: 'b.cedar', line: 2, message: 'the policy id "hours" is already used by the policy at a.cedar:1; ids must be unique across the set' },
    ]);
  });

  it('refuses an @id that another policy has by default, and an empty @id', async () => {
    const a = await folder.write('a.cedar', `${ALLOW_CLOCK}@id("policy0")\n${ALLOW_CLOCK}@id("")\n${ALLOW_CLOCK}`);
    const messages = errorsOf(await loadPolicySet([a], folder.dir, schema)).map((error) => error.message);
    expect(messages).toEqual([expect.stringMatching(/^@id needs a non-empty value/), expect.stringMatching(/^the policy id "policy0" is already used by the policy at a\.cedar:1/)]);
  });

  it('refuses templates', async () => {
    const a = await folder.write('a.cedar', `${ALLOW_CLOCK}permit(principal == ?principal, action, resource);\n`);
    expect(errorsOf(await loadPolicySet([a], folder.dir, schema))).toEqual([{ file: 'a.cedar', line: 2, message: expect.stringMatching(/^policy templates/) }]);
  });

  it('names a file it cannot read', async () => {
    expect(errorsOf(await loadPolicySet(['missing.cedar'], folder.dir, schema))).toEqual([{ file: 'missing.cedar', line: null, message: 'cannot be read: ENOENT' }]);
  });

  it('passes Cedar\'s warnings on, named by file, line and policy id, and warns of an @approval that is not "required"', async () => {
    const a = await folder.write('a.cedar', `${ALLOW_CLOCK}@id("never")\npermit(principal, action, resource) when { false };\n@approval("maybe")\n${ALLOW_CLOCK}`);
    const set = setOf(await loadPolicySet([a], folder.dir, schema));
    expect(set.warnings).toEqual([
      { file: 'a.cedar', line: 2, policyId: 'never', message: expect.stringMatching(/policy is impossible/) },
      { file: 'a.cedar', line: 4, policyId: 'policy2', message: expect.stringMatching(/^@approval\("maybe"\) is ignored/) },
    ]);
    expect(set.policies[2]?.approval).toBe(false);
  });

  it('loads an empty set, warning that every call is then denied', async () => {
    const a = await folder.write('a.cedar', '// nothing yet\n');
    const set = setOf(await loadPolicySet([a], folder.dir, schema));
    expect(set.policies).toEqual([]);
    expect(set.warnings.map((warning) => warning.message)).toEqual(['the set holds no policy: every call is denied']);
  });

  it(`refuses a set of more than ${MAX_POLICIES} policies`, async () => {
    const a = await folder.write('a.cedar', 'permit(principal, action, resource);\n'.repeat(MAX_POLICIES - 1));
    const b = await folder.write('b.cedar', 'permit(principal, action, resource);\n'.repeat(2));
    expect(errorsOf(await loadPolicySet([a, b], folder.dir, schema))).toEqual([{ file: 'b.cedar', line: null, message: expect.stringMatching(/more than 1000 policies/) }]);
  }, 30_000);

  it(`refuses policy files of more than ${MAX_POLICY_TEXT_BYTES} bytes together, before parsing them`, async () => {
    const a = await folder.write('a.cedar', `${ALLOW_CLOCK}${'// padding\n'.repeat(Math.floor((MAX_POLICY_TEXT_BYTES - ALLOW_CLOCK.length) / 11))}`);
    const b = await folder.write('b.cedar', ALLOW_CLOCK);
    expect(errorsOf(await loadPolicySet([a, b], folder.dir, schema))).toEqual([{ file: 'b.cedar', line: null, message: expect.stringMatching(/at most 262144/) }]);
  });

  it('refuses a `like` whose pattern and literal text alone would exceed the decision budget', async () => {
    const text = 'a'.repeat(20_000);
    const a = await folder.write('a.cedar', `permit(principal, action, resource) when { "${text}" like "*${'a'.repeat(200)}b" };\n`);
    expect(errorsOf(await loadPolicySet([a], folder.dir, schema))).toEqual([{ file: 'a.cedar', line: 1, message: expect.stringMatching(/`like` patterns on its own text need \d+ steps/) }]);
  });
});

describe('policies naming the tools of MCP servers that have not listed (DESIGN §18)', () => {
  const builtinsOnly = cedarSchemaFor(testTools.filter((tool) => tool.server === ''));
  const REFUND = '@id("refund-limit")\npermit(principal, action == Portcullis::Action::"mcp__payments__refund.call", resource)\n  when { context.arguments.amount.lessThanOrEqual(decimal("500.00")) };\n';

  it('awaits the server instead of refusing the set, and validates the same texts once it lists', async () => {
    const file = await folder.write('refunds.cedar', `${ALLOW_CLOCK}${REFUND}`);
    const set = setOf(await loadPolicySet([file], folder.dir, builtinsOnly, ['payments']));
    expect(set.awaiting).toEqual(['payments']);
    expect(set.policies.map((policy) => policy.id)).toEqual(['policy0', 'refund-limit']);
    // The file changes on disk; revalidation checks what was loaded, never re-reads it.
    await folder.write('refunds.cedar', 'this does not parse');
    const validated = setOf(await revalidatePolicySet(set, schema, []));
    expect(validated.awaiting).toEqual([]);
    expect(validated.version).toBe(set.version);
  });

  it('refuses the set for an error no unlisted server explains, and refuses the listing that does not validate', async () => {
    const file = await folder.write('mixed.cedar', `${REFUND}permit(principal, action == Portcullis::Action::"clock.now", resource) when { context.arguments.zone == "UTC" };\n`);
    expect(errorsOf(await loadPolicySet([file], folder.dir, builtinsOnly, ['payments'])).map((error) => error.line)).toEqual([4]);
    const wrong = await folder.write('wrong.cedar', '@id("wrong")\npermit(principal, action == Portcullis::Action::"mcp__payments__refund.call", resource) when { context.arguments.total > 1 };\n');
    const set = setOf(await loadPolicySet([wrong], folder.dir, builtinsOnly, ['payments']));
    expect(set.awaiting).toEqual(['payments']);
    const refused = errorsOf(await revalidatePolicySet(set, cedarSchemaFor([...testTools.filter((tool) => tool.server === ''), refundTool]), []));
    expect(refused).toEqual([expect.objectContaining({ file: 'wrong.cedar', line: 2, message: expect.stringContaining('total') })]);
  });

  it('does not await a server that has listed: its tool missing from the schema refuses the set as before', async () => {
    const file = await folder.write('refunds.cedar', REFUND);
    expect(errorsOf(await loadPolicySet([file], folder.dir, builtinsOnly, [])).map((error) => error.line)).toEqual([2]);
  });
});
