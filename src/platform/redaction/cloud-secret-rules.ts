// Detectors for cloud-provider credentials: AWS, Google Cloud and Azure.
// Example secrets are assembled from pieces so no scanner mistakes this file for a leak.
import { lettersAndDigits } from './secret-checks.js';
import { defineSecretRule, type SecretRule } from './secret-rule.js';

const awsKeyId = 'AKIA' + 'IOSFODNN7EXAMPLE';
const awsSecret = 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY';
const gcpKey = 'AIza' + 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY';
const azureKey = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsu' + 'Fq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const sasSig = 'SIGab12' + 'cd34EF56gh78IJ90kl12MN34op56QR78st90UV%3D';

export const cloudSecretRules: readonly SecretRule[] = [
  defineSecretRule({
    id: 'aws-access-key-id',
    description: 'AWS access key id (AKIA, ASIA, ABIA, ACCA, A3T…): prefix plus 16 base32 characters',
    keeps: 'nothing',
    anchors: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    pattern: /(?<![A-Za-z0-9]{16})(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Za-z0-9])/g,
    maxLength: 20,
    stop: /[^A-Za-z0-9]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`key id ${awsKeyId} in use`, 'key id [REDACTED] in use']],
      ignores: ['AKIA' + 'IOSFODNN1EXAMPLE', 'AKIA' + 'IOSFODNN7EXAMPL', 'XAKIA' + 'IOSFODNNAEXAMPLE'],
    },
  }),
  defineSecretRule({
    id: 'aws-secret-access-key',
    description: 'AWS secret access key: 40 base64 characters after a secret_access_key / secret_key key',
    keeps: 'the key and separator',
    anchors: ['secret'],
    pattern: /secret[_-]?(?:access[_-]?)?key["']?[ \t]{0,8}(?:=>|:=|[:=])[ \t]{0,8}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    maxLength: 80,
    stop: /[\r\n]/,
    examples: {
      detects: [[`aws_secret_access_key = ${awsSecret}`, 'aws_secret_access_key = [REDACTED]']],
      ignores: [`aws_secret_access_key = ${awsSecret.slice(1)}`, `secret_access = ${awsSecret}`],
    },
  }),
  defineSecretRule({
    id: 'gcp-api-key',
    description: 'Google Cloud API key: AIza plus 35 characters',
    keeps: 'nothing',
    anchors: ['aiza'],
    pattern: /(?<![A-Za-z0-9_-]{16})AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
    maxLength: 39,
    stop: /[^A-Za-z0-9_-]/,
    gluedAccept: lettersAndDigits,
    examples: {
      detects: [[`maps?key=${gcpKey}&v=3`, 'maps?key=[REDACTED]&v=3']],
      ignores: [gcpKey.slice(0, -1), `${gcpKey}x`],
    },
  }),
  defineSecretRule({
    id: 'gcp-service-account-key',
    description: 'Google service-account JSON: the "private_key" string (escaped PEM) as written in JSON text',
    keeps: 'the key, separator and quotes',
    anchors: ['"private_key"'],
    pattern: /"private_key"[ \t]{0,8}:[ \t]{0,8}"((?:\\.|[^"\\\r\n]){64,4096})/g,
    maxLength: 8230,
    window: 170,
    stop: /[\r\n]/,
    examples: {
      detects: [
        [
          `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n", "client_email": "a@b.iam.gserviceaccount.com"}`,
          `{"type": "service_account", "private_key": "[REDACTED]", "client_email": "a@b.iam.gserviceaccount.com"}`,
        ],
      ],
      ignores: ['{"private_key": null}', '{"private_key": "short"}', '{"private_key_id": "0123456789abcdef0123456789abcdef01234567"}'],
    },
  }),
  defineSecretRule({
    id: 'azure-shared-key',
    description: 'Azure storage AccountKey= / Service Bus SharedAccessKey= in a connection string',
    keeps: 'the key name and =',
    anchors: ['accountkey', 'sharedaccesskey'],
    pattern: /(?:AccountKey|SharedAccessKey)[ \t]{0,4}=[ \t]{0,4}([A-Za-z0-9+/]{40,100}={0,2})(?![A-Za-z0-9+/=])/gi,
    maxLength: 130,
    stop: /[\s;"']/,
    examples: {
      detects: [
        [
          `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azureKey};EndpointSuffix=core.windows.net`,
          'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED];EndpointSuffix=core.windows.net',
        ],
      ],
      ignores: ['SharedAccessKeyName=RootManageSharedAccessKey;', 'AccountKey=short;'],
    },
  }),
  defineSecretRule({
    id: 'azure-sas-token',
    description: 'Azure shared access signature: SharedAccessSignature=… or a sig= query parameter',
    keeps: 'the parameter name and =',
    anchors: ['sharedaccesssignature', 'sig='],
    pattern: /(?:SharedAccessSignature[ \t]{0,4}=[ \t]{0,4}([^\s;"'<>]{10,2048})|sig=(?<=[?&]sig=)([A-Za-z0-9%+/=]{20,256}))/gi,
    maxLength: 2080,
    stop: /[\s;"'<>]/,
    examples: {
      detects: [
        [
          `BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=${sasSig};x=1`,
          'BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=[REDACTED];x=1',
        ],
        [`GET https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig=${sasSig} 200`, 'GET https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig=[REDACTED] 200'],
      ],
      ignores: [`https://x.test/?design=${sasSig}`, 'https://x.test/?sig=short'],
    },
  }),
];
