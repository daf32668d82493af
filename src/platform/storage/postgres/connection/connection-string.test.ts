import { describe, expect, it } from 'vitest';
import { describeConnectionTarget, isPostgresUri, redactConnectionString, scrubConnectionSecrets } from './connection-string.js';

describe('connection string secrets', () => {
  it('hides the password of a libpq URI, in the userinfo and in password parameters', () => {
    expect(redactConnectionString('postgres://app:s3cr3t@db:5432/portcullis')).toBe('postgres://app:***@db:5432/portcullis');
    expect(redactConnectionString('postgresql://app:p%40ss@h1:5432,h2:5433/db?sslmode=require')).toBe('postgresql://app:***@h1:5432,h2:5433/db?sslmode=require');
    expect(redactConnectionString('postgres://app@db/x?password=hunter22&sslpassword=k3y&application_name=a')).toBe(
      'postgres://app@db/x?password=***&sslpassword=***&application_name=a',
    );
    expect(redactConnectionString('postgres://app:raw@pass@db/x')).toBe('postgres://app:***@db/x');
    expect(redactConnectionString('postgres://db:5432/x')).toBe('postgres://db:5432/x');
  });

  it('hides the password of a key=value connection string, bare or quoted', () => {
    expect(redactConnectionString('host=db port=5432 dbname=x user=app password=s3cr3t')).toBe('host=db port=5432 dbname=x user=app password=***');
    expect(redactConnectionString("host=db password = 'it\\'s a secret' user=app")).toBe('host=db password = *** user=app');
    expect(redactConnectionString('host=db sslpassword=abc')).toBe('host=db sslpassword=***');
  });

  it('scrubs driver text: URIs and key=value pairs inside it, and the literal password wherever it appears', () => {
    const uri = 'postgres://app:Tr0ub4dor%263@db/x';
    expect(scrubConnectionSecrets(`could not connect with ${uri}: refused`, uri)).toBe('could not connect with postgres://app:***@db/x: refused');
    expect(scrubConnectionSecrets('the password Tr0ub4dor&3 was refused; also Tr0ub4dor%263', uri)).toBe('the password *** was refused; also ***');
    expect(scrubConnectionSecrets('password=abc host=x', undefined)).toBe('password=*** host=x');
    expect(scrubConnectionSecrets('dbname "a" does not exist', 'postgres://u:a@h/d')).toBe('dbname "a" does not exist');
  });

  it('describes the target without its password or parameters', () => {
    expect(describeConnectionTarget('postgres://app:s3cr3t@db:5432/portcullis?password=x')).toBe('postgres://app:***@db:5432/portcullis');
  });

  it('accepts libpq URIs only', () => {
    expect(isPostgresUri('postgres://app:pw@localhost:5432/db')).toBe(true);
    expect(isPostgresUri('postgresql://localhost/db')).toBe(true);
    expect(isPostgresUri('postgres://h1:1,h2:2/db')).toBe(true);
    expect(isPostgresUri('host=localhost dbname=x')).toBe(false);
    expect(isPostgresUri('mysql://localhost/db')).toBe(false);
    expect(isPostgresUri('postgres://exa mple/db')).toBe(false);
  });
});
