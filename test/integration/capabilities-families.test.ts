// GET /api/capabilities says which families the host serves (decision 2703): each flag follows its
// switch, the same for every caller, and a family it says is off answers 403 as the flag promises.
// Direct tool invocation's switch is not among them (SPEC.md: its 403 is deliberately not distinguished).
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ANONYMOUS_DEV, buildTestApp, merge, type TestApp } from '../helpers/test-app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function families(settings: Record<string, unknown>): Promise<unknown> {
  t = await buildTestApp({ settings: merge(ANONYMOUS_DEV, settings) });
  const res = await t.app.inject({ method: 'GET', url: '/api/capabilities' });
  expect(res.statusCode).toBe(200);
  return res.json().families;
}

describe('GET /api/capabilities families', () => {
  it('says every family is on when the host turns each of them on', async () => {
    const on = {
      AppConfig: {
        AI: {
          BundleExecution: { Enabled: true },
          DirectToolInvocation: { Enabled: true },
          Evaluation: { Enabled: true, DatasetRoots: [resolve('examples/evals')] },
        },
        Schedules: { Enabled: true },
      },
    };
    expect(await families(on)).toEqual({ bundles: true, workflows: true, evals: true, schedules: true });
  });

  it('says which families are off, and those answer 403 while workflows (which have no switch) stay on', async () => {
    expect(await families({ AppConfig: { Schedules: { Enabled: false } } })).toEqual({
      bundles: false,
      workflows: true,
      evals: false,
      schedules: false,
    });
    for (const [method, url] of [
      ['GET', '/api/bundles'],
      ['GET', '/api/evals/runs'],
      ['GET', '/api/schedules'],
    ] as const) {
      const res = await t!.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await t!.app.inject({ method: 'GET', url: '/api/workflows' })).statusCode).toBe(200);
  });
});
