import { describe, expect, it } from 'vitest';
import { DEFAULT_EVAL_SETTINGS, evalRunRequest, evalSettingsFrom, evalSettingsQuery } from './eval-settings';

const query = (record: Record<string, string | readonly string[]>): URLSearchParams => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(record)) for (const item of typeof value === 'string' ? [value] : value) params.append(key, item);
  return params;
};

describe('eval settings', () => {
  it('become the run request, tags split on commas and spaces, none sent when there are none', () => {
    const settings = { datasets: new Set(['capitals', 'arithmetic']), repeats: '3', parallelism: '2', threshold: '0.25', tags: 'geo, easy  hard' };
    expect(evalRunRequest(settings)).toEqual({ datasets: ['capitals', 'arithmetic'], repeats: 3, parallelism: 2, failRateThreshold: 0.25, tagFilter: ['geo', 'easy', 'hard'] });
    expect(evalRunRequest({ ...settings, tags: ' ' })).not.toHaveProperty('tagFilter');
  });

  it('travel in a query and come back the same', () => {
    const settings = { datasets: new Set(['capitals', 'tool-use']), repeats: '2', parallelism: '8', threshold: '0.1', tags: 'geo' };
    expect(evalSettingsFrom(query(evalSettingsQuery(settings)))).toEqual(settings);
  });

  it('keep their defaults for what a query lacks', () => {
    expect(evalSettingsFrom(new URLSearchParams('dataset=capitals'))).toEqual({ ...DEFAULT_EVAL_SETTINGS, datasets: new Set(['capitals']) });
  });
});
