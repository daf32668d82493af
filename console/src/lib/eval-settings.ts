// An eval run's settings as the forms hold them (fields as typed): what POST /api/evals/runs and a
// schedule's eval target are sent, and the query a "Schedule this" link carries them in.
import type { EvalRunRequest } from '../api/types';

export interface EvalSettings {
  readonly datasets: ReadonlySet<string>;
  readonly repeats: string;
  readonly parallelism: string;
  readonly threshold: string;
  /** Tags, any of which a case must carry, separated by commas or spaces. */
  readonly tags: string;
}

export const DEFAULT_EVAL_SETTINGS: EvalSettings = { datasets: new Set(), repeats: '1', parallelism: '4', threshold: '0', tags: '' };

export function evalRunRequest(settings: EvalSettings): EvalRunRequest {
  const tagFilter = settings.tags.split(/[\s,]+/).filter((tag) => tag !== '');
  return {
    datasets: [...settings.datasets],
    repeats: Number(settings.repeats),
    parallelism: Number(settings.parallelism),
    failRateThreshold: Number(settings.threshold),
    ...(tagFilter.length === 0 ? {} : { tagFilter }),
  };
}

export function evalSettingsQuery(settings: EvalSettings): Record<string, string | readonly string[]> {
  return { dataset: [...settings.datasets], repeats: settings.repeats, parallelism: settings.parallelism, threshold: settings.threshold, tags: settings.tags };
}

/** The settings a query carries; a field it lacks keeps its default. */
export function evalSettingsFrom(query: URLSearchParams): EvalSettings {
  const field = (name: string, fallback: string): string => query.get(name) ?? fallback;
  return {
    datasets: new Set(query.getAll('dataset')),
    repeats: field('repeats', DEFAULT_EVAL_SETTINGS.repeats),
    parallelism: field('parallelism', DEFAULT_EVAL_SETTINGS.parallelism),
    threshold: field('threshold', DEFAULT_EVAL_SETTINGS.threshold),
    tags: field('tags', DEFAULT_EVAL_SETTINGS.tags),
  };
}
