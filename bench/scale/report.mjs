// Printing for bench/scale: one figure line per workload and its busiest statements per operation.
import { percentile, round } from '../lib/stats.mjs';
import { shortQuery } from '../lib/pg-statements.mjs';

const TOP = 8;
const PRINTED = 150; // characters of a statement in the printed table (the JSON line keeps up to 400)
const fmt = (value, digits = 1) => (value === null || Number.isNaN(value) ? '—' : round(value, digits).toLocaleString('en-US'));

/** The figures of one measured point, per operation (per second for the idle point). */
export function figures(point) {
  const { ops, seconds, db } = point;
  const per = (value) => (value === null ? null : value / ops);
  return {
    ops,
    seconds: round(seconds, 2),
    opsPerSecond: round(ops / seconds, 1),
    statementsPerOp: per(db.statements) === null ? null : round(per(db.statements), 2),
    walBytesPerOp: round(per(db.walBytes), 0),
    dbCpuMsPerOp: round(per(point.dbCpuMs), 3),
    serviceCpuMsPerOp: round(per(point.serviceCpuMs), 3),
    loadAverage: point.loadAverage,
  };
}

/** The busiest statements: by calls (TOP), then any of the three costliest by execution time not among them. */
export function topStatements(point, schema) {
  const rows = point.db.rows ?? [];
  const byCalls = rows.slice(0, TOP);
  const byTime = [...rows].sort((a, b) => b.totalMs - a.totalMs).slice(0, 3).filter((row) => !byCalls.includes(row));
  return [...byCalls, ...byTime].map((row) => ({
    callsPerOp: round(row.calls / point.ops, 3),
    callsPerSecond: round(row.calls / point.seconds, 1),
    meanUs: round(row.meanMs * 1000, 0),
    execMsPerOp: round(row.totalMs / point.ops, 3),
    query: shortQuery(row.query, 400, schema),
  }));
}

/** One figure line and the busiest statements; `unit` 's' prints an idle point (figures per second). */
export function printPoint(title, point, schema, unit = 'op') {
  const f = figures(point);
  const idle = unit === 's';
  const rate = idle ? `${fmt(f.seconds)} s`.padStart(14) : `${fmt(f.opsPerSecond).padStart(9)} ${unit}/s`;
  const statements = f.statementsPerOp === null ? '' : `statements ${fmt(f.statementsPerOp, 2)}/${unit}  `;
  console.log(
    `  ${title.padEnd(24)} ${rate}  ${statements}WAL ${fmt(f.walBytesPerOp, 0)} B/${unit}  DB CPU ${fmt(f.dbCpuMsPerOp, 3)} ms/${unit}  service CPU ${fmt(f.serviceCpuMsPerOp, 3)} ms/${unit}  (load ${point.loadAverage.join(' → ')})`,
  );
  if (point.extra) console.log(`  ${''.padEnd(24)} ${point.extra}`);
  const top = topStatements(point, schema);
  if (top.length === 0) return;
  console.log(`    ${`calls/${unit}`.padStart(9)}${idle ? '' : '  calls/s'}   mean µs  exec ms/${unit}  statement`);
  for (const row of top) {
    const perSecond = idle ? '' : `  ${fmt(row.callsPerSecond).padStart(7)}`;
    const query = row.query.length <= PRINTED ? row.query : `${row.query.slice(0, PRINTED - 1)}…`;
    console.log(`    ${fmt(row.callsPerOp, 3).padStart(9)}${perSecond}  ${fmt(row.meanUs, 0).padStart(8)}  ${fmt(row.execMsPerOp, 3).padStart(10)}  ${query}`);
  }
}

/**
 * The workflow point's own lines: start-to-finish times, polls, failures, runs stuck at the window's
 * end, and the slowest runs of the whole load (workflow-load.mjs).
 */
export function workflowExtra(result, { finishedPoll, livePoll }, statementsPerRun, { slowest, unfinishedAges }) {
  const p = (values, q) => (values.length === 0 ? Number.NaN : percentile(values, q));
  const pollsPerRun = result.polls / result.ops;
  const livePollsPerRun = result.livePolls / result.ops;
  // Each poll at what a poll of its kind cost in its own point: a live run's (approvals read) or a finished one's.
  const pollStatements = livePollsPerRun * livePoll + (pollsPerRun - livePollsPerRun) * finishedPoll;
  const withoutPolls = [statementsPerRun, finishedPoll, livePoll].includes(null) ? null : statementsPerRun - pollStatements;
  const samples = [...result.failureSamples, ...result.errorSamples];
  const indent = `\n  ${''.padEnd(24)} `;
  return {
    line:
      `start-to-finish (service createdAt → completedAt) p50 ${fmt(p(result.serviceMs, 50), 0)} ms, p99 ${fmt(p(result.serviceMs, 99), 0)} ms; ` +
      `as the client saw it p50 ${fmt(p(result.clientMs, 50), 0)} ms; polls ${fmt(pollsPerRun, 2)}/run, ${fmt(livePollsPerRun, 2)} of them finding it live (HTTP requests ${fmt(result.requests / result.ops, 2)}/run); ` +
      `statements without the polls ≈ ${fmt(withoutPolls, 1)}/run` +
      `${indent}failed runs ${result.failures}, HTTP errors ${result.errors}, runs older than 1 s unfinished at the window's end ${result.stuck}` +
      samples.map((sample) => `${indent}  e.g. ${sample}`).join('') +
      `${indent}slowest runs of the load (202 → end seen): ${slowest.map((r) => `${fmt(r.clientMs, 0)} ms ${r.status}, Queued for ${fmt(r.queuedMs, 0)} ms (${r.polls} polls)`).join('; ')}` +
      (unfinishedAges.length === 0 ? '' : `${indent}left unfinished 5 s after the load stopped: ${unfinishedAges.length} run(s), ${unfinishedAges.map((ms) => `${fmt(ms / 1000)} s`).join(', ')} old`),
    json: {
      p50Ms: p(result.serviceMs, 50),
      p99Ms: p(result.serviceMs, 99),
      clientP50Ms: p(result.clientMs, 50),
      pollsPerRun: round(pollsPerRun, 2),
      livePollsPerRun: round(livePollsPerRun, 2),
      requestsPerRun: round(result.requests / result.ops, 2),
      statementsPerRunWithoutPolls: withoutPolls === null ? null : round(withoutPolls, 2),
      failures: result.failures,
      errors: result.errors,
      stuckAtEnd: result.stuck,
      unfinishedAtStopAgesMs: unfinishedAges,
      slowestRuns: slowest.map((r) => ({ clientMs: Math.round(r.clientMs), status: r.status, queuedMs: r.queuedMs, serviceMs: r.serviceMs, polls: r.polls })),
    },
  };
}
