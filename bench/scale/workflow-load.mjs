// A closed-loop workflow-run load: one worker per caller, each starting a run of its own definition
// (`POST /api/workflows/{id}/runs`), then polling it until it ends, then starting the next. Every
// request goes to the next instance in turn (round-robin over `urls`), as a load balancer would send
// them. A worker waits about as long as recent runs took before its first poll (so a run costs about
// one poll, not one per 10 ms), then polls every POLL_EVERY_MS, and every SLOW_POLL_EVERY_MS once the
// run is older than SLOW_AFTER_MS (a run stuck for a minute then costs a few hundred polls, not
// thousands, in the window's statement counts).
//
// Only what ends while a window is open counts: a run that ended `Succeeded` is an operation (its
// start-to-finish time is the service's own `completedAt − createdAt`); any other end is a failure,
// and an answer other than 202 to a start or 200 to a poll is an error. Neither is an operation.
// Runs still unfinished SLOW_AFTER_MS after their start when a window closes are counted as stuck,
// and the slowest runs over the load's whole life are reported with their service timestamps. On
// stop, workers get STOP_GRACE_MS to see their runs end; runs still unfinished then are reported by
// age and left alone (so one stuck run does not hold the benchmark for minutes).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { median } from '../lib/stats.mjs';

const POLL_EVERY_MS = 10;
const SLOW_AFTER_MS = 1_000;
const SLOW_POLL_EVERY_MS = 250;
const FIRST_WAIT_MS = 30;
const RECENT = 32;
const SLOWEST = 3;
const STOP_GRACE_MS = 5_000;
// Blocked cannot happen here (no gate, autonomy Autonomous); should it, it ends the worker's wait as a failure.
const TERMINAL = new Set(['Succeeded', 'Failed', 'Cancelled', 'Blocked']);

/** callers: [{ headers, workflowId }], one worker each. */
export function startWorkflowLoad({ urls, callers }) {
  let turn = 0;
  const nextUrl = () => urls[turn++ % urls.length];
  const recent = [];
  const slowest = [];
  const inFlight = new Set(); // { sentAt } of each worker's current run
  let window;
  let stopped = false;
  let abandoned = false;

  const error = (what) => {
    if (window === undefined) return;
    window.errors += 1;
    if (window.errorSamples.length < 5) window.errorSamples.push(what);
  };

  /** fetch, counted in the open window (every request, whatever it answers). */
  const request = (url, init) => {
    if (window !== undefined) window.requests += 1;
    return fetch(url, init);
  };

  const noteSlowest = (entry) => {
    slowest.push(entry);
    slowest.sort((a, b) => b.clientMs - a.clientMs);
    slowest.length = Math.min(slowest.length, SLOWEST);
  };

  /** Polls until the run ends; resolves with the run, how many polls it took and how many found it live. */
  async function follow(statusUrl, headers, current) {
    await sleep(recent.length === 0 ? FIRST_WAIT_MS : median(recent));
    for (let polls = 1; !abandoned; polls += 1) {
      const res = await request(`${nextUrl()}${statusUrl}`, { headers });
      const text = await res.text();
      if (res.status === 200) {
        const run = JSON.parse(text);
        if (TERMINAL.has(run.status)) return { run, polls, live: polls - 1 };
      } else {
        error(`poll answered ${res.status}: ${text.slice(0, 200)}`);
      }
      await sleep(performance.now() - current.sentAt < SLOW_AFTER_MS ? POLL_EVERY_MS : SLOW_POLL_EVERY_MS);
    }
    return { run: null, polls: 0, live: 0 };
  }

  async function once({ headers, workflowId }) {
    const started = await request(`${nextUrl()}/api/workflows/${workflowId}/runs`, { method: 'POST', headers });
    const startText = await started.text();
    if (started.status !== 202) {
      error(`start answered ${started.status}: ${startText.slice(0, 200)}`);
      return sleep(50);
    }
    const current = { sentAt: performance.now() };
    inFlight.add(current);
    const { run, polls, live } = await follow(JSON.parse(startText).statusUrl, headers, current).finally(() => inFlight.delete(current));
    if (run === null) return undefined; // abandoned at stop
    const clientMs = performance.now() - current.sentAt;
    const serviceMs = Date.parse(run.completedAt) - Date.parse(run.createdAt);
    noteSlowest({ clientMs, polls, status: run.status, queuedMs: Date.parse(run.startedAt) - Date.parse(run.createdAt), serviceMs });
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
    window.livePolls += live;
    window.serviceMs.push(serviceMs);
    window.clientMs.push(clientMs);
    return undefined;
  }

  const workers = callers.map(async (caller) => {
    while (!stopped) await once(caller);
  });

  return {
    /** Counts what ends from now until the returned function is called, which answers the counts. */
    open() {
      window = { ops: 0, failures: 0, errors: 0, polls: 0, livePolls: 0, requests: 0, stuck: 0, serviceMs: [], clientMs: [], failureSamples: [], errorSamples: [] };
      const current = window;
      return () => {
        const now = performance.now();
        current.stuck = [...inFlight].filter((run) => now - run.sentAt > SLOW_AFTER_MS).length;
        window = undefined;
        return current;
      };
    },
    /**
     * Lets each worker finish the run it is on (for up to STOP_GRACE_MS), then resolves with the
     * slowest runs seen over the load's life, { clientMs (202 answered → end seen), polls, status,
     * queuedMs, serviceMs }, and the ages (ms) of the runs left unfinished.
     */
    async stop() {
      stopped = true;
      const all = Promise.all(workers);
      const timer = sleep(STOP_GRACE_MS, 'late');
      const late = (await Promise.race([all, timer])) === 'late';
      const now = performance.now();
      const unfinishedAges = late ? [...inFlight].map((run) => Math.round(now - run.sentAt)) : [];
      abandoned = true;
      await all;
      return { slowest, unfinishedAges };
    },
  };
}
