import { describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../../storage-unavailable.js';
import { describeFailure, isUnavailableCause, toStorageError } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('which driver failures mean the database is unreachable', () => {
  it('counts network failures, connection-class SQLSTATEs, shutdowns, the pool timing out and a statement left unanswered', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('ETIMEDOUT'),
      withCode('ENOTFOUND'),
      withCode('08006'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('28P01', 'password authentication failed for user "app"'),
      withCode('3D000', 'database "x" does not exist'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ]) {
      expect(isUnavailableCause(error)).toBe(true);
      const mapped = toStorageError(error);
      expect(mapped).toBeInstanceOf(StorageUnavailableError);
      expect((mapped as Error).cause).toBe(error);
    }
  });

  it('leaves defects alone: a bad statement or a constraint is not an outage', () => {
    for (const error of [withCode('42601', 'syntax error'), withCode('23505', 'duplicate key'), new TypeError('x is not a function'), 'text']) {
      expect(isUnavailableCause(error)).toBe(false);
      expect(toStorageError(error)).toBe(error);
    }
  });

  it('describes a failure in one line with the code, hiding the password', () => {
    expect(describeFailure(new StorageUnavailableError({ cause: withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5') }))).toBe(
      'connect ECONNREFUSED 127.0.0.1:5',
    );
    expect(describeFailure(Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:5')], ''), { code: 'ECONNREFUSED' }))).toBe(
      'connect ECONNREFUSED ::1:5',
    );
    expect(describeFailure(withCode('XX000', 'failed for postgres://u:Pw-123456@h/d'), 'postgres://u:Pw-123456@h/d')).toBe('XX000: failed for postgres://u:***@h/d');
  });
});
