// Rate windows on a real PostgreSQL lend permits in blocks (decision 2801): a busy caller costs a
// statement per block instead of one per request, instances together never admit more than the
// window's permits, a block left unused goes back within a second, and a flood of refused takes
// costs one statement per second. Two PgRateWindows on one schema are two instances; each counts
// the statements its own database handle runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../clock/index.js';
import { adminQuery, freshPostgres } from '../../../../../test/helpers/postgres.js';
import { eventually } from '../../../../../test/helpers/eventually.js';
import { PgDatabase } from '../connection/pg-database.js';
import { migratePostgres } from '../create-postgres-storage.js';
import { schemaNames } from '../schema-names.js';
import { PgRateWindows, RETURN_AFTER_MS } from './pg-rate-windows.js';

const database = freshPostgres('rates');
const silent = { info: () => undefined, warn: () => undefined };
const clock = new ManualClock();
const opened: Array<{ rates: PgRateWindows; db: PgDatabase }> = [];

/** An instance: its own pool and windows, and the count of statements it sent. */
function instance(): { rates: PgRateWindows; statements: () => number } {
  const db = new PgDatabase({ connectionString: database.connectionString, maxConnections: 4, log: silent });
  const query = vi.spyOn(db, 'query');
  const rates = new PgRateWindows(db, schemaNames(database.schema), clock, silent);
  opened.push({ rates, db });
  return { rates, statements: () => query.mock.calls.length };
}

async function windowRow(key: string): Promise<{ count: number; granted: number } | undefined> {
  const rows = await adminQuery<{ count: number; granted: number }>(`SELECT count, granted FROM "${database.schema}".rate_windows WHERE policy = 'p' AND key = $1`, [key]);
  return rows[0];
}

beforeAll(async () => {
  await migratePostgres({ clock, clockSource: 'injected', connectionString: database.connectionString, schema: database.schema, log: silent });
});
beforeEach(() => {
  clock.advance(61_000); // every test in a window of its own
});
afterAll(async () => {
  for (const { rates, db } of opened) {
    await rates.close();
    await db.close();
  }
  await database.drop();
});

describe('PgRateWindows: permits lent in blocks', () => {
  it('costs a busy caller a statement per block, not one per request', async () => {
    const a = instance();
    for (let i = 0; i < 2_000; i += 1) expect((await a.rates.take('p', 'busy', 1_000_000)).allowed).toBe(true);
    // Blocks grow with the caller's takes in the last second: 1, 1, 2, 4, … — about log2(2,000) statements.
    expect(a.statements()).toBeLessThanOrEqual(16);
    expect((await windowRow('busy'))!.count).toBeGreaterThanOrEqual(2_000);
  });

  it('never lends more than the window has: two instances racing admit exactly the permits', async () => {
    const [a, b] = [instance(), instance()];
    const takes = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).rates.take('p', 'race', 50)));
    expect(takes.filter((t) => t.allowed)).toHaveLength(50);
    expect((await windowRow('race'))!.count).toBe(50);
  });

  it('counts a caller who alternates between instances exactly: the 121st of 120 per minute is refused', async () => {
    const [a, b] = [instance(), instance()];
    const allowed: boolean[] = [];
    for (let i = 0; i < 120; i += 1) allowed.push((await (i % 2 === 0 ? a : b).rates.take('p', 'alternating', 120)).allowed);
    expect(allowed.every(Boolean)).toBe(true);
    const refused = await b.rates.take('p', 'alternating', 120);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(a.statements() + b.statements()).toBeLessThan(60);
  });

  it('gives an unused block back within a second, so another instance admits those permits', async () => {
    const [a, b] = [instance(), instance()];
    for (let i = 0; i < 8; i += 1) await a.rates.take('p', 'moving', 100);
    const lent = (await windowRow('moving'))!.count;
    expect(lent).toBeGreaterThan(8); // a holds permits it has not used
    // The caller moves to b: b admits what the window has not lent, then is refused early...
    let admittedByB = 0;
    while ((await b.rates.take('p', 'moving', 100)).allowed) admittedByB += 1;
    expect(8 + admittedByB).toBeLessThan(100);
    // ...until a gives its unused block back (a block unused for a second), and b's remembered refusal ends.
    clock.advance(RETURN_AFTER_MS);
    await eventually(async () => ((await windowRow('moving'))!.count === 8 + admittedByB ? true : undefined), 3_000);
    while ((await b.rates.take('p', 'moving', 100)).allowed) admittedByB += 1;
    expect(8 + admittedByB).toBe(100);
  });

  it('answers a flood of refused takes locally: one statement per second, not per take', async () => {
    const a = instance();
    for (let i = 0; i < 3; i += 1) expect((await a.rates.take('p', 'flood', 3)).allowed).toBe(true);
    const before = a.statements();
    for (let i = 0; i < 1_000; i += 1) expect((await a.rates.take('p', 'flood', 3)).allowed).toBe(false);
    expect(a.statements() - before).toBe(1);
    clock.advance(1_000);
    expect((await a.rates.take('p', 'flood', 3)).allowed).toBe(false);
    expect(a.statements() - before).toBe(2);
  });

  it('gives every unused block back when the instance closes', async () => {
    const a = instance();
    for (let i = 0; i < 10; i += 1) await a.rates.take('p', 'closing', 1_000);
    expect((await windowRow('closing'))!.count).toBeGreaterThan(10);
    await a.rates.close();
    expect((await windowRow('closing'))!.count).toBe(10);
  });
});
