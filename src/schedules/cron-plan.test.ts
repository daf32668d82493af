import { describe, expect, it } from 'vitest';
import { isProblemError } from '../platform/problems/index.js';
import { canonicalTimeZone, CronPlan } from './cron-plan.js';

const NOW = Date.parse('2026-03-28T12:00:00Z');
const at = (iso: string) => Date.parse(iso);

function refusal(cron: string, minIntervalSeconds = 60, timeZone = 'UTC'): string {
  try {
    CronPlan.accept(cron, timeZone, { minIntervalSeconds }, NOW);
  } catch (err) {
    if (isProblemError(err) && err.code === 'validation-failed') return err.detail;
    throw err;
  }
  throw new Error(`${cron} was accepted`);
}

describe('CronPlan.accept', () => {
  it('accepts five fields and the four nicknames', () => {
    expect(CronPlan.accept('*/5 * * * *', 'UTC', { minIntervalSeconds: 60 }, NOW).next(NOW)).toBe(at('2026-03-28T12:05:00Z'));
    expect(CronPlan.accept('@daily', 'UTC', { minIntervalSeconds: 60 }, NOW).next(NOW)).toBe(at('2026-03-29T00:00:00Z'));
    for (const nickname of ['@hourly', '@weekly', '@monthly']) expect(() => CronPlan.accept(nickname, 'UTC', { minIntervalSeconds: 60 }, NOW)).not.toThrow();
  });

  it('refuses other nicknames, wrong field counts and unreadable fields, saying what to change', () => {
    expect(refusal('@yearly')).toContain('the nicknames are @hourly, @daily, @weekly, @monthly');
    expect(refusal('* * * *')).toBe('cron must have five fields (minute hour day-of-month month day-of-week); it has 4.');
    expect(refusal('61 * * * *')).toMatch(/^cron is not a valid cron expression: .*minute/);
    expect(refusal('0 0 30 2 *')).toBe('cron never fires: no date matches it.');
  });

  it('takes six fields (seconds first) only when MinIntervalSeconds is under 60, and holds them to it', () => {
    expect(refusal('*/30 * * * * *')).toContain('accepted only when AppConfig:Schedules:MinIntervalSeconds is under 60 (it is 60)');
    expect(CronPlan.accept('*/30 * * * * *', 'UTC', { minIntervalSeconds: 30 }, NOW).next(NOW)).toBe(NOW + 30_000);
    expect(refusal('*/10 * * * * *', 30)).toBe('cron fires 10 s apart at times; AppConfig:Schedules:MinIntervalSeconds requires at least 30 s between fires.');
  });

  it('refuses a cron whose closest fires are under MinIntervalSeconds apart, even when most are far apart', () => {
    expect(refusal('0,2 9 * * *', 300)).toContain('fires 120 s apart');
    expect(() => CronPlan.accept('0,10 9 * * *', 'UTC', { minIntervalSeconds: 300 }, NOW)).not.toThrow();
  });
});

describe('CronPlan in Europe/Paris across DST', () => {
  const paris = (cron: string) => CronPlan.accept(cron, 'Europe/Paris', { minIntervalSeconds: 60 }, NOW);

  it('fires a 02:30 job skipped by spring-forward once, at the first valid time after the gap (03:00 CEST)', () => {
    expect(paris('30 2 * * *').next(at('2026-03-28T12:00:00Z'))).toBe(at('2026-03-29T01:00:00Z'));
    expect(paris('30 2 * * *').next(at('2026-03-29T01:00:00Z'))).toBe(at('2026-03-30T00:30:00Z'));
  });

  it('fires a 02:30 job repeated by fall-back once, and an hourly job on both 02:30s', () => {
    expect(paris('30 2 * * *').next(at('2026-10-25T00:00:00Z'))).toBe(at('2026-10-25T00:30:00Z'));
    expect(paris('30 2 * * *').next(at('2026-10-25T00:30:00Z'))).toBe(at('2026-10-26T01:30:00Z'));
    expect(paris('30 * * * *').next(at('2026-10-25T00:30:00Z'))).toBe(at('2026-10-25T01:30:00Z'));
  });
});

describe('CronPlan.latest', () => {
  it('is the latest fire at or before the instant (the instant itself included)', () => {
    const hourly = CronPlan.of('0 * * * *', 'UTC');
    expect(hourly.latest(at('2026-03-28T12:00:00Z'))).toBe(at('2026-03-28T12:00:00Z'));
    expect(hourly.latest(at('2026-03-28T12:59:59.999Z'))).toBe(at('2026-03-28T12:00:00Z'));
  });
});

describe('canonicalTimeZone', () => {
  it('names IANA zones canonically and refuses offsets and unknown names', () => {
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('+01:00')).toBeUndefined();
    expect(canonicalTimeZone('Mars/Olympus')).toBeUndefined();
  });
});
