// Issue 22, point 3: the off-thread tools share a small pool of threads fairly between callers. One
// caller's catastrophic patterns cannot hold another caller's call back by more than the per-call
// limit, and work past the pool's bounded queue is refused at once: 429 for direct invocation.
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { listen } from './workflows-harness.js';

/** The text tool's per-call limit (text-limits.ts DEFAULT_TIMEOUT_MS). */
const PER_CALL_LIMIT_MS = 1000;
const NORMAL = { operation: 'extract', parameters: { text: 'order 42 shipped on day 7', pattern: '\\d+' } };
/** Backtracks about 2^32 times: every call runs into the per-call limit. */
const CATASTROPHIC = { operation: 'extract', parameters: { text: `${'a'.repeat(32)}!`, pattern: '^(a+)+$' } };

let idp: DevIdp;
let t: TestApp;
let base: string;

beforeAll(async () => {
  idp = await startTestIdp();
  t = await buildTestApp({
    environment: 'Production',
    settings: idpSettings(idp, {
      // More than the pool lets one caller keep waiting, so its own bound (not the slots) refuses the excess.
      DirectToolInvocation: { Enabled: true, MaxConcurrentPerCaller: 12 },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['text'], AutonomyCeiling: 'Autonomous' } } },
      RateLimits: { 'tools-invoke': { PermitsPerMinute: 100_000 } },
    }),
  });
  base = await listen(t);
});

afterAll(async () => {
  await t.close();
  await idp.close();
});

async function caller(sub: string): Promise<Record<string, string>> {
  return { ...bearer(await idp.mintToken({ sub, roles: ['Harness.Tools.Invoke'] })), 'content-type': 'application/json' };
}

async function invoke(headers: Record<string, string>, body: object): Promise<{ status: number; ms: number; body: Record<string, unknown>; retryAfter: string | null }> {
  const started = performance.now();
  const res = await fetch(`${base}/api/tools/text/invoke`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, ms: performance.now() - started, body: json, retryAfter: res.headers.get('retry-after') };
}

describe('the text tool under a regex flood', () => {
  it("answers another caller's extract within its normal latency plus the per-call limit while one caller floods catastrophic patterns", async () => {
    const [mallory, bob] = await Promise.all([caller('mallory'), caller('bob')]);
    // Two callers at once start both threads; then the other caller's normal latency, warm.
    await Promise.all([invoke(bob, NORMAL), invoke(mallory, NORMAL)]);
    const baseline: number[] = [];
    for (let i = 0; i < 5; i += 1) baseline.push((await invoke(bob, NORMAL)).ms);
    const normal = Math.max(...baseline);

    let flooding = true;
    const flood = Promise.all(Array.from({ length: 4 }, () => invoke(mallory, CATASTROPHIC))).finally(() => (flooding = false));
    const during: number[] = [];
    while (flooding) {
      const answer = await invoke(bob, NORMAL);
      expect(answer.body).toMatchObject({ succeeded: true });
      during.push(answer.ms);
      await pause(20); // paced, so the other caller asks throughout the flood rather than in a burst
    }
    for (const answer of await flood) expect(answer.body).toMatchObject({ succeeded: false, error: 'pattern timed out' });
    expect(during.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...during)).toBeLessThan(normal + PER_CALL_LIMIT_MS);
  });

  it("answers 429 at once, with Retry-After, for calls past the caller's waiting bound, and serves another caller meanwhile", async () => {
    const [mallory, bob] = await Promise.all([caller('mallory'), caller('bob')]);
    // One running, eight waiting (the pool's per-caller bound): the rest are refused, never queued.
    const flood = Array.from({ length: 12 }, () => invoke(mallory, { ...CATASTROPHIC, timeoutSeconds: 1.5 }));
    const other = await invoke(bob, NORMAL);
    const answers = await Promise.all(flood);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer).toMatchObject({ retryAfter: '1', body: { status: 429, detail: 'The tool has too many calls waiting. Retry after 1 second.' } });
      expect(answer.ms).toBeLessThan(PER_CALL_LIMIT_MS);
    }
    // The others ran into the per-call limit (200, failed) or waited past their own deadline (504).
    for (const answer of answers.filter((a) => a.status !== 429)) expect([200, 504]).toContain(answer.status);
    expect(other.body).toMatchObject({ succeeded: true });
  });
});
