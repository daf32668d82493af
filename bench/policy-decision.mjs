// Issue 38 / DESIGN §18: what one policy decision costs (PolicyDecider.decide, in process, on the
// compiled dist/): p50/p99 µs per decision against 1, 10 and 100 policies, the 100 both spread over
// the built-in tools (a decision meets those of its own tool and the unscoped ones) and all applying to
// the decided action (the worst case); what a naive integration (isAuthorized, re-parsing the set per
// call) costs for the same 100; and DESIGN §17's bound: the slowest decision the set and argument bounds
// allow (1,000 policies that all apply, the most argument text policies read, a like at its budget);
// and cedar-wasm's own floor (a trivial policy, an empty request).
// `npm run build` (or `npx tsc -p tsconfig.build.json`) first. BENCH_DECISIONS (default 20,000) per row.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { cedarSchemaFor, loadPolicySet, PolicyDecider, LIKE_WORK_BUDGET, MAX_ARGUMENT_TEXT } from '../dist/src/policies/index.js';
import { builtinToolDescriptors } from '../dist/src/tools/builtin/index.js';
import { percentile, round } from './lib/stats.mjs';

const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 20_000);
const tools = builtinToolDescriptors.map((descriptor) => ({ descriptor, server: '' }));
const schema = cedarSchemaFor(tools);
const actions = Object.keys(schema.Portcullis.actions).filter((name) => name !== 'call');
const tool = (name) => tools.find((t) => t.descriptor.name === name);

/** A policy of realistic shape for `action` (a role, a tag, a run counter, a `like` on an argument when it has a url). */
function policyFor(i, action, id = true) {
  const scope = action === null ? 'action in Portcullis::Action::"call"' : `action == Portcullis::Action::"${action}"`;
  const url = action === null || action.startsWith('http_fetch') ? ` && context.arguments.url like "https://host${i}.example.com/*"` : '';
  const readsUrl = action === null ? '' : url;
  const effect = i % 5 === 4 ? 'forbid' : 'permit';
  return `${id ? `@id("p${i}")\n` : ''}${effect}(principal in Portcullis::Role::"role${i % 7}", ${scope}, resource)\n  when { principal.hasTag("department") && principal.getTag("department") != "d${i}" && context.run.callsOfThisTool < ${i + 5}${readsUrl} };\n`;
}

const sets = {
  '1 policy': () => policyFor(1, 'http_fetch.get'),
  '10 policies, spread over the tools': () => Array.from({ length: 10 }, (_, i) => policyFor(i, actions[i % actions.length])).join(''),
  '100 policies, spread over the tools': () => Array.from({ length: 100 }, (_, i) => policyFor(i, i % 10 === 0 ? null : actions[i % actions.length])).join(''),
  '100 policies, all applying to the call': () => Array.from({ length: 100 }, (_, i) => policyFor(i, i % 2 === 0 ? 'http_fetch.get' : null)).join(''),
};

const request = (overrides = {}) => ({
  principal: { ownerId: 'sub:alice', subject: 'alice', roles: ['role1', 'support'], claims: { department: 'finance', email: 'alice@example.com' } },
  tool: tool('http_fetch'),
  operation: 'get',
  surface: 'bundle',
  bundleId: 'triage-desk',
  run: { toolCalls: 3, callsOfThisTool: 1, spentMicroUsd: 1200 },
  utcHour: 14,
  arguments: { url: 'https://host1.example.com/v1/orders/42' },
  ...overrides,
});

const dir = await mkdtemp(join(tmpdir(), 'portcullis-bench-policies-'));
async function load(name, text) {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.cedar`);
  await writeFile(file, text);
  const started = performance.now();
  const loaded = await loadPolicySet([file], dir, schema);
  if (!loaded.ok) throw new Error(`${name}: ${JSON.stringify(loaded.errors)}`);
  const decider = new PolicyDecider(loaded.set);
  return { decider, set: loaded.set, loadMs: round(performance.now() - started, 0) };
}

function time(decide, count) {
  for (let i = 0; i < Math.min(2_000, count); i += 1) decide();
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i += 1) {
    const started = process.hrtime.bigint();
    decide();
    samples[i] = Number(process.hrtime.bigint() - started) / 1000;
  }
  return { p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)) };
}

const loadBefore = loadavg()[0];
const rows = [];
for (const [name, make] of Object.entries(sets)) {
  const { decider, set, loadMs } = await load(name, make());
  const sample = decider.decide(request());
  rows.push({ set: name, policies: set.policies.length, decision: sample.decision, ...time(() => decider.decide(request()), DECISIONS), loadMs });
}

// The naive integration: Cedar's stateless isAuthorized with the schema, re-parsing the set per call.
const naiveText = sets['100 policies, all applying to the call']();
const naive = {
  principal: { type: 'Portcullis::Caller', id: 'sub:alice' },
  action: { type: 'Portcullis::Action', id: 'http_fetch.get' },
  resource: { type: 'Portcullis::Tool', id: 'http_fetch' },
  context: { operation: 'get', surface: 'bundle', bundleId: 'triage-desk', run: { toolCalls: 3, callsOfThisTool: 1, spentMicroUsd: 1200 }, utcHour: 14, arguments: { url: 'https://host1.example.com/x' } },
  entities: [
    { uid: { type: 'Portcullis::Caller', id: 'sub:alice' }, attrs: { subject: 'alice' }, parents: [{ type: 'Portcullis::Role', id: 'role1' }], tags: { department: 'finance' } },
    { uid: { type: 'Portcullis::Role', id: 'role1' }, attrs: {}, parents: [] },
    { uid: { type: 'Portcullis::Tool', id: 'http_fetch' }, attrs: { riskTier: 'High', server: '', readOnly: true }, parents: [] },
  ],
  policies: { staticPolicies: naiveText },
  schema,
};
rows.push({ set: '100 policies, all applying: isAuthorized per call (not used)', policies: 100, ...time(() => cedar.isAuthorized(naive), Math.min(DECISIONS, 500)) });

// The floor: one preparsed trivial policy and an empty request, what any decision costs in cedar-wasm.
cedar.preparsePolicySet('bench-floor', { staticPolicies: { floor: 'permit(principal, action, resource);' } });
const floor = { principal: { type: 'A', id: 'a' }, action: { type: 'Action', id: 'a' }, resource: { type: 'R', id: 'r' }, context: {}, entities: [], preparsedPolicySetId: 'bench-floor' };
rows.push({ set: "cedar-wasm's floor: statefulIsAuthorized, empty request", policies: 1, ...time(() => cedar.statefulIsAuthorized(floor), DECISIONS) });

// DESIGN §17: the slowest decisions the bounds allow, best and worst of 5.
const worst = [];
async function bound(name, text, req) {
  const { decider, loadMs } = await load(name, text);
  const times = [];
  let decision;
  for (let i = 0; i < 5; i += 1) {
    const started = performance.now();
    decision = decider.decide(req).decision;
    times.push(performance.now() - started);
  }
  worst.push({ case: name, decision, bestMs: round(Math.min(...times)), worstMs: round(Math.max(...times)), loadMs });
}
await bound('1,000 policies (the most a set holds), all applying', Array.from({ length: 1_000 }, (_, i) => policyFor(i, i % 2 === 0 ? 'http_fetch.get' : null, false)).join(''), request());
const text = 'o'.repeat(MAX_ARGUMENT_TEXT - 10);
await bound('256 Ki characters of argument text read by a policy', 'permit(principal, action == Portcullis::Action::"text.count_tokens", resource) when { context.arguments.text != "" };', request({ tool: tool('text'), operation: 'count_tokens', arguments: { text } }));
const patternLength = 200;
const longest = Math.floor(LIKE_WORK_BUDGET / (patternLength + 2)) - 2;
await bound(
  `like at its budget (pattern ${patternLength}, text ${longest})`,
  `permit(principal, action == Portcullis::Action::"text.count_tokens", resource) unless { context.arguments.text like "*${'o'.repeat(patternLength - 2)}x*" };`,
  request({ tool: tool('text'), operation: 'count_tokens', arguments: { text: 'o'.repeat(longest) } }),
);
await rm(dir, { recursive: true, force: true });

console.log(`policy decisions (${DECISIONS} a row; load average ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after)`);
console.table(rows);
console.table(worst);
console.log(JSON.stringify({ benchmark: 'policy-decision', decisions: DECISIONS, loadAverage: [round(loadBefore, 2), round(loadavg()[0], 2)], rows, worst }));
