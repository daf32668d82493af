import { describe, expect, it } from 'vitest';
import { NO_EVAL_RUN_OPTIONS, withRunOptions } from './eval-run-options';

const REQUEST = { datasets: ['mine/faq'], repeats: 1 };

describe('eval run options', () => {
  it('add nothing when none is chosen', () => {
    expect(withRunOptions(REQUEST, NO_EVAL_RUN_OPTIONS)).toEqual(REQUEST);
  });

  it('send the handle as the subject and the baseline with failOnRegression', () => {
    expect(withRunOptions(REQUEST, { handle: 'h1', baseline: 'job-1', failOnRegression: true })).toEqual({
      ...REQUEST,
      subject: { handle: 'h1' },
      baseline: 'job-1',
      failOnRegression: true,
    });
    expect(withRunOptions(REQUEST, { handle: '', baseline: 'job-1', failOnRegression: false })).toEqual({ ...REQUEST, baseline: 'job-1' });
  });

  it('never send failOnRegression without a baseline', () => {
    expect(withRunOptions(REQUEST, { handle: '', baseline: '', failOnRegression: true })).toEqual(REQUEST);
  });
});
