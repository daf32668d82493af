// examples/grafana/portcullis-dashboard.json is built on the metrics GET /metrics exposes: every
// series a panel queries is a family (or a histogram's _bucket/_sum/_count) of a fresh service's
// exposition, and every label a panel groups or filters by is one of that family's labels.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceMetrics } from '../../src/platform/metrics/index.js';
import { Exposition } from '../helpers/prometheus.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

interface Panel {
  readonly title: string;
  readonly targets?: ReadonlyArray<{ readonly expr: string }>;
}

const METRIC = /\b((?:portcullis|process|nodejs)_[a-z0-9_]+)/g;
const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;
/** Labels Prometheus adds when scraping, or PromQL's own. */
const SCRAPE_LABELS = new Set(['job', 'instance', 'le']);

let t: TestApp;
let exposition: Exposition;
let panels: Panel[];

beforeAll(async () => {
  t = await buildTestApp();
  exposition = new Exposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
  const dashboard = JSON.parse(await readFile(new URL('../../examples/grafana/portcullis-dashboard.json', import.meta.url), 'utf8')) as { panels: Panel[] };
  panels = dashboard.panels.filter((panel) => panel.targets !== undefined);
});
afterAll(async () => {
  await t.close();
});

function familyOf(series: string): string {
  if (exposition.families.has(series)) return series;
  const base = series.replace(HISTOGRAM_SERIES, '');
  if (base !== series && exposition.families.get(base)?.type === 'HISTOGRAM') return base;
  throw new Error(`the dashboard queries ${series}, which /metrics does not expose`);
}

describe('the Grafana dashboard example', () => {
  it('has panels for requests, runs, governance, models, evals and the process', () => {
    expect(panels.length).toBeGreaterThanOrEqual(15);
  });

  it('queries only series that /metrics exposes', () => {
    const queried = new Set(panels.flatMap((panel) => panel.targets!.flatMap((target) => [...target.expr.matchAll(METRIC)].map((match) => match[1]!))));
    expect(queried.size).toBeGreaterThan(15);
    for (const series of queried) expect(() => familyOf(series)).not.toThrow();
  });

  it('groups and filters by labels the metrics carry', () => {
    const metrics = new ServiceMetrics({ enabled: true });
    const labelsOf = new Map<string, readonly string[]>(
      Object.values(metrics)
        .filter((family): family is { name: string; labelNames: readonly string[] } => typeof family === 'object' && family !== null && 'labelNames' in family)
        .map((family) => [family.name, family.labelNames]),
    );
    labelsOf.set('portcullis_redactions_total', ['rule']);
    for (const panel of panels) {
      for (const { expr } of panel.targets!) {
        const families = [...expr.matchAll(METRIC)].map((match) => familyOf(match[1]!)).filter((name) => name.startsWith('portcullis_'));
        const used = [...expr.matchAll(/by \(([^)]*)\)/g)].flatMap((match) => match[1]!.split(',').map((label) => label.trim()));
        used.push(...[...expr.matchAll(/[{,]\s*([a-z_]+)\s*(?:=~|!=|=)/g)].map((match) => match[1]!));
        for (const label of used.filter((name) => !SCRAPE_LABELS.has(name))) {
          expect(families.some((family) => labelsOf.get(family)?.includes(label)), `${panel.title}: ${label}`).toBe(true);
        }
      }
    }
  });
});
