// Detectors keyed by context rather than by shape: `password=…`, `"api_key": "…"`, `token: …` and
// the Password=/Pwd= field of ADO connection strings. The key and separator are kept, the value goes.
import { defineSecretRule, type SecretRule } from './secret-rule.js';
import { looksGenerated, notPlaceholder } from './secret-checks.js';

/** Separator forms: `=`, `:`, `:=`, `=>`, optionally after the key's closing quote and blanks. */
const separator = String.raw`["']?[ \t]{0,8}(?:=>|:=|[:=])[ \t]{0,8}`;
/** A value, double-quoted, single-quoted (closing quote not required) or bare; `min` characters at least. */
const value = (min: number, quotedBlank: string): string =>
  String.raw`(?:"((?:\\.|[^"\\\r\n${quotedBlank}]){${min},256})|'((?:\\.|[^'\\\r\n${quotedBlank}]){${min},256})|([^\s"'\x60,;&<>(){}\[\]]{${min},256}))`;

const apiKey = 'Zx81' + 'Qw7eRt5yUi3oPa1s';
const absolutePath = /^(?:\/|~\/|[A-Za-z]:\\)/;

export const genericSecretRules: readonly SecretRule[] = [
  defineSecretRule({
    id: 'generic-password',
    description: 'password / passwd / passphrase / pwd assignments (key=value, key: value, "key": "value"), not placeholders, type names or paths',
    keeps: 'the key and separator',
    anchors: ['password', 'passwd', 'passphrase', 'pwd'],
    pattern: new RegExp(String.raw`(?:passwd|password|passphrase|(?<![A-Za-z0-9])pwd)${separator}${value(1, '')}`, 'gi'),
    maxLength: 545,
    window: 34,
    stop: /[\r\n]/,
    // `PWD=/home/app` is the working directory, and a path is where a secret is, not the secret.
    accept: (secret) => notPlaceholder(secret) && !absolutePath.test(secret),
    examples: {
      detects: [
        ['PGPASSWORD=hunter2 psql', 'PGPASSWORD=[REDACTED] psql'],
        ['DB_PWD=s3cr3t', 'DB_PWD=[REDACTED]'],
        ['{"user":"a","password":"correct \\"horse\\""}', '{"user":"a","password":"[REDACTED]"}'],
        ["db:\n  passphrase: 'p@ss'\n", "db:\n  passphrase: '[REDACTED]'\n"],
      ],
      ignores: ['password: string;', 'password=${DB_PASSWORD}', 'PASSWORD_FILE=/run/secrets/db', 'password=[REDACTED]', 'PWD=/home/app', 'OLDPWD=x1'],
    },
  }),
  defineSecretRule({
    id: 'generic-secret',
    description: 'api_key / access_key / private_key / secret / secret_key / token / credentials assignments with a generated-looking value (8+ chars)',
    keeps: 'the key and separator',
    anchors: ['api_key', 'api-key', 'apikey', 'access_key', 'access-key', 'accesskey', 'private_key', 'private-key', 'privatekey', 'secret', 'token', 'credential'],
    pattern: new RegExp(
      String.raw`(?:api[_-]?key|access[_-]?key|private[_-]?key|secret(?:[_-]?key)?|token|credentials?)${separator}${value(8, String.raw`\s`)}`,
      'gi',
    ),
    maxLength: 545,
    window: 52,
    stop: /[\r\n]/,
    accept: (secret) => looksGenerated(secret),
    examples: {
      detects: [
        [`client_secret=${apiKey}&grant_type=client_credentials`, 'client_secret=[REDACTED]&grant_type=client_credentials'],
        [`{"apiKey": "${apiKey}"}`, '{"apiKey": "[REDACTED]"}'],
        [`GITHUB_TOKEN: ${apiKey}`, 'GITHUB_TOKEN: [REDACTED]'],
      ],
      ignores: ['max_tokens: 4096', 'token_type: Bearer', '"secret": "undefined"', 'token: accessToken', 'tokenizer=cl100k_base'],
    },
  }),
  defineSecretRule({
    id: 'connection-string-password',
    description: 'Password= / Pwd= field of an ADO.NET / ODBC connection string (Server=…;Password=…;), value up to the next ;',
    keeps: 'the field name and =',
    anchors: ['password', 'pwd'],
    pattern: /(?:password|pwd)(?<=;[ \t]{0,4}(?:password|pwd))[ \t]{0,4}=[ \t]{0,4}(?:"([^"\r\n]{1,256})|'([^'\r\n]{1,256})|([^;"'\r\n]{1,256}))/gi,
    maxLength: 280,
    window: 20,
    stop: /[\r\n]/,
    accept: notPlaceholder,
    examples: {
      detects: [
        [
          'Server=tcp:db.example.net,1433;Database=app;User ID=svc;Password=Sup3r secret!;Encrypt=True',
          'Server=tcp:db.example.net,1433;Database=app;User ID=svc;Password=[REDACTED];Encrypt=True',
        ],
        ['Driver={ODBC};Uid=sa; Pwd=s3cret;', 'Driver={ODBC};Uid=sa; Pwd=[REDACTED];'],
      ],
      ignores: ['Password=Sup3r secret!;Server=x', 'Server=x;Password=;'],
    },
  }),
];
