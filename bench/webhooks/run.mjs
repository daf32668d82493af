// Webhooks (DESIGN §14): delivery throughput from the outbox — events per second from a backlog in
// the outbox to a loopback receiver, on PostgreSQL (embedded, or BENCH_POSTGRES_URL).
//
// One `portcullis serve` (anonymous Development mode, Webhooks:AllowedHosts 127.0.0.1) creates the
// subscription and stops. BENCH_EVENTS (5,000) events are then written to its outbox through the storage
// port as the families write them: journal commits of 100 outbox entries each (one delivery per event).
// A fresh `portcullis serve` starts on that schema; the figure is events delivered per second, from the
// receiver's first request to its BENCH_EVENTS-th (each answered 200 at once), and every delivery is
// checked Delivered through GET /api/webhooks/{id}/deliveries. Target: ≥ 500 events/s.
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchPostgres } from '../storage/embedded-postgres.mjs';
import { serveCli } from '../lib/serve-cli.mjs';
import { call } from '../lib/json-calls.mjs';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
const BATCH = 100;
const TARGET_PER_SECOND = 500;
const SCHEMA = 'bench_webhooks';
const { createPostgresStorage } = await import('../../dist/src/platform/storage/postgres/create-postgres-storage.js');
const { systemClock, randomIds } = await import('../../dist/src/platform/clock/index.js');
const { newDelivery, eventBody } = await import('../../dist/src/webhooks/webhook-delivery.js');
const { ANONYMOUS_PRINCIPAL } = await import('../../dist/src/platform/auth/index.js');
const DEADLINE_MS = 120_000;

const work = await mkdtemp(join(tmpdir(), 'portcullis-bench-webhooks-'));
const database = await benchPostgres();

// The receiver: counts requests and answers each 200 at once.
const arrivals = [];
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    arrivals.push(performance.now());
    response.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

function serve() {
  const env = {
    PATH: process.env.PATH ?? '',
    PORTCULLIS_ENVIRONMENT: 'Development',
    AppConfig__Logging__Level: 'warn',
    AppConfig__AI__BundleExecution__Auth__AllowAnonymous: 'true',
    'AppConfig__AI__RateLimits__webhooks-write__PermitsPerMinute': '1000000',
    'AppConfig__AI__RateLimits__webhooks-read__PermitsPerMinute': '1000000',
    AppConfig__Storage__Provider: 'Postgres',
    AppConfig__Storage__Postgres__ConnectionString: database.url,
    AppConfig__Storage__Postgres__Schema: SCHEMA,
    AppConfig__Webhooks__AllowedHosts__0: '127.0.0.1',
  };
  return serveCli({ cwd: work, env, stderr: 'inherit' });
}

async function stop(server) {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
}

const results = { benchmark: 'webhooks', storage: 'Postgres', events: EVENTS };
try {
  const first = await serve();
  const webhook = await call(first.url, 'POST', '/api/webhooks', { url: receiverUrl, events: ['workflow.run.finished'] });
  await stop(first);
  const owner = ANONYMOUS_PRINCIPAL.ownerId;

  // The backlog, written as a family writes events: outbox entries committed with a change.
  const storage = await createPostgresStorage({ clock: systemClock, connectionString: database.url, schema: SCHEMA, maxConnections: 2, log: { info() {}, warn() {} } });
  const anchor = { collection: 'bench-anchor', ownerId: owner, id: 'anchor' };
  await storage.records.insert({ ...anchor, state: 'Running', createdAt: systemClock.now(), data: {} });
  const seeding = performance.now();
  for (let i = 0; i < EVENTS; i += BATCH) {
    const at = systemClock.now();
    const outbox = Array.from({ length: Math.min(BATCH, EVENTS - i) }, (_, j) => {
      const jobId = `job-${i + j}`;
      const body = eventBody('workflow.run.finished', at, { workflowId: 'w', jobId, status: 'Succeeded', url: `/api/workflows/w/runs/${jobId}` });
      return newDelivery({ ownerId: owner, webhookId: webhook.id, deliveryId: randomIds.opaque(), eventId: `msg_${randomIds.opaque()}`, type: 'workflow.run.finished', body, at });
    });
    const written = await storage.journal.commit(anchor, { outbox });
    if (!written.committed) throw new Error('the outbox commit was refused');
  }
  results.seedMs = Math.round(performance.now() - seeding);
  await storage.close();

  const second = await serve();
  try {
    const deadline = Date.now() + DEADLINE_MS;
    while (arrivals.length < EVENTS) {
      if (Date.now() > deadline) throw new Error(`only ${arrivals.length} of ${EVENTS} events arrived within ${DEADLINE_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (arrivals[EVENTS - 1] - arrivals[0]) / 1000;
    results.eventsPerSecond = Math.round((EVENTS - 1) / seconds);
    results.targetPerSecond = TARGET_PER_SECOND;
    results.met = results.eventsPerSecond >= TARGET_PER_SECOND;
    // Every delivery is logged Delivered, none attempted twice.
    let delivered = 0;
    let cursor = null;
    do {
      const page = await call(second.url, 'GET', `/api/webhooks/${webhook.id}/deliveries?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      delivered += page.deliveries.filter((d) => d.status === 'Delivered' && d.attempt === 1).length;
      cursor = page.nextCursor;
    } while (cursor !== null);
    results.deliveredOnce = delivered;
    results.requests = arrivals.length;
  } finally {
    await stop(second);
  }
  console.log(JSON.stringify(results, null, 2));
  console.log(`webhook delivery from the outbox: ${results.eventsPerSecond} events/s (target ≥ ${TARGET_PER_SECOND}) — ${results.met ? 'met' : 'NOT met'}`);
} finally {
  receiver.closeAllConnections();
  receiver.close();
  await database.stop();
  await rm(work, { recursive: true, force: true });
}
