// Shared plumbing of the schedule HTTP tests: a fake clock and stepped tickers on instances that share
// one storage, creating schedules, reading their fires, and the audit lines they write.
import { expect } from 'vitest';
import { ManualClock } from '../../src/platform/clock/index.js';
import { createLogger } from '../../src/platform/log/index.js';
import type { App } from '../../src/platform/http/index.js';
import { ManualTicks } from '../../src/schedules/index.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { chain, isFinal, pollUntil, submit, toolStep, workflowSettings } from './workflows-harness.js';

export const HOUR = 3_600_000;
const FAST = Object.fromEntries(['schedules-write', 'schedules-read'].map((policy) => [policy, { PermitsPerMinute: 100_000 }]));

export interface Instance {
  readonly t: TestApp;
  readonly ticks: ManualTicks;
}

/** Instances of one deployment (anonymous Development, one shared storage) whose clock and tickers the test drives. */
export class Deployment {
  readonly clock: ManualClock;
  readonly log: LogCapture = captureLog();
  readonly instances: Instance[] = [];
  #shared!: TestStorage;

  private constructor(start: number) {
    this.clock = new ManualClock(start);
  }

  static async open(start: number, count: number, settings: Record<string, unknown> = {}): Promise<Deployment> {
    const deployment = new Deployment(start);
    deployment.#shared = await openSharedTestStorage(deployment.clock);
    for (let i = 0; i < count; i += 1) await deployment.startInstance(settings);
    return deployment;
  }

  get app(): App {
    const first = this.instances[0];
    if (first === undefined) throw new Error('no instance is running');
    return first.t.app;
  }

  async startInstance(settings: Record<string, unknown> = {}): Promise<Instance> {
    const ticks = new ManualTicks();
    const t = await buildTestApp({
      settings: merge(workflowSettings({ RateLimits: FAST }), settings),
      deps: {
        storage: this.#shared.storage,
        clock: this.clock,
        scheduleTicks: ticks,
        instanceId: `instance-${this.instances.length + 1}`,
        logger: createLogger({ level: 'info', destination: this.log.destination }),
      },
    });
    const instance = { t, ticks };
    this.instances.push(instance);
    return instance;
  }

  /** Stops every instance (the storage stays: "downtime"). */
  async stopAll(): Promise<void> {
    for (const instance of this.instances.splice(0)) await instance.t.close();
  }

  /** One pass of every instance's ticker, all at once (instances with schedules on). */
  async tick(): Promise<void> {
    await Promise.all(this.instances.map((instance) => instance.ticks.step()));
  }

  async close(): Promise<void> {
    await this.stopAll();
    await this.#shared.dispose();
  }

  auditLines(event: string): Array<Record<string, unknown>> {
    return this.log.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['event'] === event);
  }
}

export async function createSchedule(app: App, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ id: string; nextRunAt: string | null }> {
  const res = await app.inject({ method: 'POST', url: '/api/schedules', payload: body, headers });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export interface Fire {
  scheduledFor: string;
  firedAt: string;
  jobId?: string;
  outcome: 'Started' | 'Skipped' | 'Failed';
  reason?: string;
}

/** Every fire of the schedule, newest first (all pages). */
export async function firesOf(app: App, id: string, headers: Record<string, string> = {}): Promise<Fire[]> {
  const fires: Fire[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/schedules/${id}/fires?limit=200${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    const page: { fires: Fire[]; nextCursor: string | null } = res.json();
    fires.push(...page.fires);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return fires;
}

/** A one-step workflow that reads the clock (its runs finish at once). */
export async function quickWorkflow(app: App, name = 'scheduled'): Promise<string> {
  return submit(app, chain(name, toolStep('now')));
}

/** Waits until the workflow run a fire started has finished (before the clock jumps past its lease). */
export async function settled(app: App, workflowId: string, jobId: string): Promise<void> {
  await pollUntil(app, `/api/workflows/${workflowId}/runs/${jobId}`, isFinal);
}
