// Throughput of Portcullis against its bare baseline, side by side in one run: autocannon (in this
// process) drives each server (its own process), rounds alternated, medians and min..max printed.
import autocannon from 'autocannon';
import { alternate, round, show, spread } from './stats.mjs';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

export function autocannonRun(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 20, duration: SECONDS, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * Requests that rotate over callers: request n goes to `callers[n % callers.length]`, each caller
 * bringing its own path and headers (a bearer token, its own run). Both sides get the same rotation.
 */
export function rotating(callers, base = {}) {
  let next = 0;
  return [
    {
      ...base,
      setupRequest: (request) => {
        const caller = callers[next];
        next = (next + 1) % callers.length;
        return { ...request, path: caller.path ?? request.path, headers: { ...request.headers, ...caller.headers } };
      },
    },
  ];
}

/**
 * sides: { portcullis: autocannonOptions, bare: autocannonOptions }; `servers` maps a side to its
 * server (processes.mjs) so its CPU time per request is reported too: a figure that shared-machine
 * contention disturbs far less than throughput. Its kernel (system) share is printed beside it: it
 * grows as a server slows, since each answer then wakes a load generator that has gone idle. Each side is warmed up once,
 * then measured `ROUNDS` times in alternation. Returns per-side medians and the ratio of medians
 * (portcullis ÷ bare) with the per-round ratios' range. Any non-2xx answer invalidates the run.
 */
export async function compareThroughput({ sides, servers = {}, warmupSeconds = 2 }) {
  const names = Object.keys(sides);
  for (const name of names) await autocannonRun({ ...sides[name], duration: warmupSeconds });
  const samples = await alternate(names, ROUNDS, async (name) => {
    const cpuBefore = await servers[name]?.cpu();
    const result = await autocannonRun(sides[name]);
    const cpuAfter = await servers[name]?.cpu();
    const systemUs = cpuBefore === undefined ? Number.NaN : cpuAfter.system - cpuBefore.system;
    const cpuUs = cpuBefore === undefined ? Number.NaN : cpuAfter.user - cpuBefore.user + systemUs;
    if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
      throw new Error(`${name}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} timeouts: the figures are not valid`);
    }
    return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUsPerRequest: cpuUs / result.requests.total, systemUsPerRequest: systemUs / result.requests.total };
  });
  const summary = {};
  for (const name of names) {
    const list = samples[name];
    summary[name] = {
      requestsPerSecond: spread(list.map((s) => s.rps), 0),
      latencyP50Ms: spread(list.map((s) => s.p50), 1),
      latencyP99Ms: spread(list.map((s) => s.p99), 1),
      ...(servers[name]
        ? { serverCpuUsPerRequest: spread(list.map((s) => s.cpuUsPerRequest), 1), serverSystemCpuUsPerRequest: spread(list.map((s) => s.systemUsPerRequest), 1) }
        : {}),
    };
  }
  const [a, b] = names;
  const ratios = samples[a].map((s, i) => s.rps / samples[b][i].rps);
  summary.ratio = { ofMedians: round(summary[a].requestsPerSecond.median / summary[b].requestsPerSecond.median, 3), perRound: spread(ratios, 3) };
  if (summary[a].serverCpuUsPerRequest && summary[b].serverCpuUsPerRequest) {
    summary.ratio.ofCpuPerRequest = round(summary[b].serverCpuUsPerRequest.median / summary[a].serverCpuUsPerRequest.median, 3);
  }
  // A third side (BENCH_BEFORE) against the first, round by round: rounds next to each other share the
  // machine's state, so their ratio moves far less than either side's figure.
  for (const name of names.slice(2)) {
    if (!servers[a] || !servers[name]) continue;
    summary.ratio.cpuPerRequestAgainst ??= {};
    summary.ratio.cpuPerRequestAgainst[name] = spread(samples[a].map((s, i) => s.cpuUsPerRequest / samples[name][i].cpuUsPerRequest), 3);
  }
  return summary;
}

/** A one-screen table of a compareThroughput result. */
export function printThroughput(title, summary, target) {
  const rows = Object.entries(summary).filter(([name]) => name !== 'ratio');
  console.log(`\n${title}  (${ROUNDS} alternated rounds × ${SECONDS} s; median (min..max))`);
  for (const [name, figures] of rows) {
    // The kernel's share (system) rises as a server slows: each answer then wakes an idle load generator.
    const cpu = figures.serverCpuUsPerRequest ? `  server CPU ${show(figures.serverCpuUsPerRequest, ' µs/req')}, of it system ${figures.serverSystemCpuUsPerRequest.median}` : '';
    console.log(`  ${name.padEnd(13)} ${show(figures.requestsPerSecond, ' req/s').padEnd(38)} p50 ${show(figures.latencyP50Ms, ' ms').padEnd(20)} p99 ${show(figures.latencyP99Ms, ' ms').padEnd(20)}${cpu}`);
  }
  const met = summary.ratio.ofMedians >= target;
  const [a, b] = rows.map(([name]) => name);
  const cpuRatio = summary.ratio.ofCpuPerRequest === undefined ? '' : `  (CPU per request, ${b} ÷ ${a}: ${summary.ratio.ofCpuPerRequest})`;
  console.log(`  ratio         ${summary.ratio.ofMedians} (rounds ${summary.ratio.perRound.min}..${summary.ratio.perRound.max})  target ≥ ${target}  ${met ? 'MET' : 'NOT MET'}${cpuRatio}`);
  for (const [name, paired] of Object.entries(summary.ratio.cpuPerRequestAgainst ?? {})) {
    console.log(`  CPU per request, ${a} ÷ ${name}, round by round: ${show(paired, '')}`);
  }
  return met;
}
