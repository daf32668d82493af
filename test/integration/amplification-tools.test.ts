// Amplification through the `memory` tool (issue 9): every caller may keep values between calls,
// so without a per-owner byte cap and a cap on owners held, enough callers pin unbounded memory.
// Driven over HTTP with real tokens from a loopback identity provider; this process's resident
// memory is measured while the attack runs and what it keeps afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevIdp } from '../../src/cli/dev-idp/index.js';
import { bearer, idpSettings, startTestIdp } from '../helpers/idp.js';
import { startRssProbe } from '../helpers/rss-probe.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

let idp: DevIdp;
let t: TestApp;

beforeAll(async () => {
  idp = await startTestIdp();
  t = await buildTestApp({
    environment: 'Production',
    settings: idpSettings(idp, {
      DirectToolInvocation: { Enabled: true },
      Tools: { Memory: { MaxOwners: 8 } },
      BundleExecution: { Envelopes: { Default: { AllowedTools: ['memory'], AutonomyCeiling: 'Autonomous' } } },
      RateLimits: { 'tools-invoke': { PermitsPerMinute: 1_000_000 } },
    }),
  });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

describe('memory amplification', () => {
  it('holds at most MaxBytesPerOwner per caller and MaxOwners callers, however many values they set', async () => {
    const value = 'v'.repeat(60 * 1024);
    const probe = startRssProbe();
    try {
      const outcomes: Array<{ owner: number; stored: number; lastError: string | undefined }> = [];
      for (let owner = 0; owner < 10; owner += 1) {
        const headers = { ...bearer(await idp.mintToken({ sub: `hoarder-${owner}`, roles: ['Harness.Tools.Invoke'] })), 'content-type': 'application/json' };
        let stored = 0;
        let lastError: string | undefined;
        for (let key = 0; key < 120; key += 1) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/tools/memory/invoke',
            headers,
            payload: JSON.stringify({ operation: 'set', parameters: { key: `k${key}`, value } }),
          });
          expect(res.statusCode, res.body).toBe(200);
          const body = res.json<{ succeeded: boolean; error?: string }>();
          if (body.succeeded) stored += 1;
          else lastError = body.error;
        }
        probe.sample();
        outcomes.push({ owner, stored, lastError });
      }
      // 256 KiB per owner: four 60 KiB values each; the ninth and tenth callers are refused outright.
      expect(outcomes.slice(0, 8).every((o) => o.stored === 4 && o.lastError === 'Memory is full (262144 bytes of keys and values); delete a key first.')).toBe(true);
      expect(outcomes.slice(8)).toEqual([
        { owner: 8, stored: 0, lastError: 'Memory is full on this host: it holds entries for as many callers as it may; try again later.' },
        { owner: 9, stored: 0, lastError: 'Memory is full on this host: it holds entries for as many callers as it may; try again later.' },
      ]);
      // Unbounded, the attack keeps 10 × 120 × 60 KiB = 70 MiB; bounded, 8 × 256 KiB.
      expect(probe.retainedGrowthMiB()).toBeLessThan(16);
    } finally {
      probe.stop();
    }
    // 1,200 calls one after another and a forced collection: 7–18 s, past 20 beside a second suite run.
  }, 60_000);
});
