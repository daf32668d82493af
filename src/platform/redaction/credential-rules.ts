// Detectors for structural credentials: JWTs, PEM private-key blocks, Authorization headers, bare
// bearer tokens and passwords in URL userinfo (which covers postgres://, mongodb+srv://, redis://…).
import { defineSecretRule, type SecretRule } from './secret-rule.js';
import { lettersAndDigits, looksGenerated, notPlaceholder } from './secret-checks.js';

const jwt =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
  '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ' +
  '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const keyBody = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK';
const pem = (label: string, body = keyBody): string => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;

export const credentialRules: readonly SecretRule[] = [
  defineSecretRule({
    id: 'jwt',
    description: 'JSON Web Token: eyJ… header, eyJ… payload and signature, base64url',
    keeps: 'nothing',
    anchors: ['eyj'],
    pattern: /(?<![A-Za-z0-9_-]{16})eyJ[A-Za-z0-9_-]{8,512}\.eyJ[A-Za-z0-9_-]{2,8192}\.[A-Za-z0-9_-]{0,1024}/g,
    maxLength: 9740,
    stop: /[^A-Za-z0-9_.-]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`id_token=${jwt}&state=1`, 'id_token=[REDACTED]&state=1']],
      ignores: ['eyJhbGciOiJIUzI1NiJ9.notapayload.x', 'eyJhbGciOiJIUzI1NiJ9 eyJzdWIiOiIxIn0'],
    },
  }),
  defineSecretRule({
    id: 'private-key-block',
    description: 'PEM / OpenSSH / PGP private key block (RSA, EC, DSA, OPENSSH, PGP, ENCRYPTED, plain); unterminated blocks run to the end of the text',
    keeps: 'nothing (the whole block, markers included)',
    anchors: ['-----begin'],
    pattern: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
    blockEnd: /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
    maxLength: 80,
    stop: /[^A-Z0-9 -]/,
    examples: {
      detects: [
        [`key:\n${pem('RSA PRIVATE KEY')}\nnext`, 'key:\n[REDACTED]\nnext'],
        [`${pem('EC PRIVATE KEY')} ${pem('OPENSSH PRIVATE KEY')}`, '[REDACTED] [REDACTED]'],
        [`${pem('PGP PRIVATE KEY BLOCK')}.`, '[REDACTED].'],
        [`${pem('ENCRYPTED PRIVATE KEY')}|${pem('PRIVATE KEY')}`, '[REDACTED]|[REDACTED]'],
        [`cut off: -----BEGIN PRIVATE KEY-----\n${keyBody}\nand everything after`, 'cut off: [REDACTED]'],
      ],
      ignores: [pem('PUBLIC KEY'), pem('CERTIFICATE'), '-----BEGIN private key-----'],
    },
  }),
  defineSecretRule({
    id: 'authorization-header',
    description: 'Authorization header value (Bearer, Basic, token, Bot, ApiKey schemes or a raw credential)',
    keeps: 'the header name, separator and scheme',
    anchors: ['authorization'],
    pattern:
      /authorization["']?[ \t]{0,4}[:=][ \t]{0,4}["']?(?:(?:bearer|basic|token|bot|apikey)[ \t]{1,4})?([A-Za-z0-9._~+/=:-]{8,4096})/gi,
    maxLength: 4140,
    window: 48,
    stop: /[\r\n]/,
    accept: notPlaceholder,
    examples: {
      detects: [
        [`Authorization: Bearer ${jwt.slice(0, 40)}x`, 'Authorization: Bearer [REDACTED]'],
        ['authorization: Basic dXNlcjpwYXNzd29yZA==\r\n', 'authorization: Basic [REDACTED]\r\n'],
        ['{"Authorization": "token 0123456789abcdef0123"}', '{"Authorization": "token [REDACTED]"}'],
      ],
      ignores: ['Authorization: required', 'Authorization: Bearer', 'authorization is checked first'],
    },
  }),
  defineSecretRule({
    id: 'bearer-token',
    description: 'Bare "Bearer <token>" outside a header (curl lines, logs), token of at least 16 characters',
    keeps: 'the word Bearer and the space',
    anchors: ['bearer'],
    pattern: /(?<![A-Za-z0-9_-])bearer[ \t]{1,4}([A-Za-z0-9._~+/-]{16,4096}={0,3})(?![A-Za-z0-9._~+/=-])/gi,
    maxLength: 4110,
    window: 28,
    stop: /[^ \tA-Za-z0-9._~+/=-]/,
    accept: (token) => looksGenerated(token),
    examples: {
      detects: [['curl -H "X-Auth: Bearer abc123DEF456ghi789JKL" x', 'curl -H "X-Auth: Bearer [REDACTED]" x']],
      ignores: ['the bearer of bad news', 'Bearer responsibilities', 'Bearer short1'],
    },
  }),
  defineSecretRule({
    id: 'url-userinfo-password',
    description: 'Password in URL userinfo (scheme://user:password@host), incl. postgres://, mysql://, mongodb+srv://, redis://, amqp://',
    keeps: 'the scheme, user name and @host',
    anchors: ['://'],
    pattern: /:\/\/[^\s:@/?#"'<>]{0,128}:([^\s@/?#"'<>]{1,256})(?=@)/g,
    maxLength: 390,
    stop: /[\s/?#"'<>]/,
    accept: notPlaceholder,
    examples: {
      detects: [
        ['DATABASE_URL=postgres://app:s3cr3t-pw@db.internal:5432/app', 'DATABASE_URL=postgres://app:[REDACTED]@db.internal:5432/app'],
        ['mongodb+srv://svc:p%40ss@cluster0.example.mongodb.net/db', 'mongodb+srv://svc:[REDACTED]@cluster0.example.mongodb.net/db'],
        ['redis://:hunter22@cache:6379/0 and mysql://root:pw@localhost/db', 'redis://:[REDACTED]@cache:6379/0 and mysql://root:[REDACTED]@localhost/db'],
      ],
      ignores: ['https://example.com:8443/path', 'ssh://git@github.com/o/r.git', 'postgres://app:${DB_PASSWORD}@db/app'],
    },
  }),
];
