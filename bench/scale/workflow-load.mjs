// A closed-loop workflow-run load: one worker per caller, each starting a run of its own definition
// (`POST /api/workflows/{id}/runs`), then polling it until it ends, then starting the next. Every
// request goes to the next instance in turn (round-robin over `urls`), as a load balancer would send
// them. A worker waits about as long as recent runs took before its first poll (so a run costs about
// one poll, not one per 10 ms), then polls every POLL_EVERY_MS.
//
// Only what ends while a window is open counts: a run that ended `Succeeded` is an operation (its
// start-to-finish time is the service's own `completedAt − createdAt`); any other end is a failure,
// and an answer other than 202 to a start or 200 to a poll is an error. Neither is an operation.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from '../lib/stats.mjs';

const POLL_EVERY_MS = 10;
const FIRST_WAIT_MS = 30;
const RECENT = 32;
// Blocked cannot happen here (no gate, autonomy Autonomous); should it, it ends the worker's wait as a failure.
const TERMINAL = new Set(['Succeeded', 'Failed', 'Cancelled', 'Blocked']);

/** callers: [{ headers, workflowId }], one worker each. */
export function startWorkflowLoad({ urls, callers }) {
  let turn = 0;
  const nextUrl = () => urls[turn++ % urls.length];
  const recent = [];
  let window;
  let stopped = false;

  const error = (what) => {
    if (window === undefined) return;
    window.errors += 1;
    if (window.errorSamples.length < 5) window.errorSamples.push(what);
  };

  async function once({ headers, workflowId }) {
    const started = await fetch(`${nextUrl()}/api/workflows/${workflowId}/runs`, { method: 'POST', headers });
    const startText = await started.text();
    if (started.status !== 202) {
      error(`start answered ${started.status}: ${startText.slice(0, 200)}`);
      return sleep(50);
    }
    const { statusUrl } = JSON.parse(startText);
    const sentAt = performance.now();
    await sleep(recent.length === 0 ? FIRST_WAIT_MS : median(recent));
    for (let polls = 1; ; polls += 1) {
      const res = await fetch(`${nextUrl()}${statusUrl}`, { headers });
      const text = await res.text();
      if (res.status !== 200) {
        error(`poll answered ${res.status}: ${text.slice(0, 200)}`);
        await sleep(POLL_EVERY_MS);
        continue;
      }
      const run = JSON.parse(text);
      if (!TERMINAL.has(run.status)) {
        await sleep(POLL_EVERY_MS);
        continue;
      }
      const serviceMs = Date.parse(run.completedAt) - Date.parse(run.createdAt);
      recent.push(serviceMs);
      if (recent.length > RECENT) recent.shift();
      if (window === undefined) return undefined;
      if (run.status !== 'Succeeded') {
        window.failures += 1;
        if (window.failureSamples.length < 5) window.failureSamples.push(`${run.status}: ${run.error ?? JSON.stringify(run.steps.map((s) => [s.name, s.status, s.error]))}`);
        return undefined;
      }
      window.ops += 1;
      window.polls += polls;
      window.serviceMs.push(serviceMs);
      window.clientMs.push(performance.now() - sentAt);
      return undefined;
    }
  }

  const workers = callers.map(async (caller) => {
    while (!stopped) await once(caller);
  });

  return {
    /** Counts what ends from now until the returned function is called, which answers the counts. */
    open() {
      window = { ops: 0, failures: 0, errors: 0, polls: 0, serviceMs: [], clientMs: [], failureSamples: [], errorSamples: [] };
      const current = window;
      return () => {
        window = undefined;
        return current;
      };
    },
    /** Lets each worker finish the run it is on, then resolves. */
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}
