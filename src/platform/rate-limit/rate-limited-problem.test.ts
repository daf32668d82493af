import { describe, expect, it } from 'vitest';
import { toProblem } from '../problems/index.js';
import { rateLimitedProblem } from './rate-limited-problem.js';

describe('rateLimitedProblem', () => {
  it('renders a 429 with Retry-After in whole seconds', () => {
    const rendered = toProblem(rateLimitedProblem(42), '/api/bundles');
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'retry-after': '42' });
    expect(rendered.body).toMatchObject({ title: 'Too many requests', detail: 'Too many requests. Retry after 42 seconds.' });
  });

  it('names the policy and its configuration key when given one', () => {
    expect(rateLimitedProblem(5, undefined, 'bundles-register').detail).toBe(
      "Too many requests under the 'bundles-register' rate limit (AppConfig:AI:RateLimits:bundles-register:PermitsPerMinute). Retry after 5 seconds.",
    );
  });

  it('keeps a given detail', () => {
    expect(rateLimitedProblem(1, 'Too many open streams.').detail).toBe('Too many open streams.');
  });

  it('rounds Retry-After up and never below one second', () => {
    expect(rateLimitedProblem(2.1).headers).toEqual({ 'retry-after': '3' });
    expect(rateLimitedProblem(0).headers).toEqual({ 'retry-after': '1' });
  });
});
