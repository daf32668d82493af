// Keys of AppConfig:AI:BundleExecution:Auth (SPEC.md "Authentication", DESIGN.md §2 and §10).
// They govern every operation family, not only bundles.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { listCodec } from '../codecs/list-codec.js';
import { nameCodec, optionalTextCodec } from '../codecs/text-codecs.js';
import { timeSpanCodec } from '../codecs/time-span-codec.js';
import { baseUrlCodec } from '../codecs/url-codecs.js';
import { defineKeys } from '../define-keys.js';

const at = <Name extends string>(name: Name) => `AppConfig:AI:BundleExecution:Auth:${name}` as const;

export const authKeys = defineKeys([
  { key: at('TenantId'), codec: optionalTextCodec, default: null, meaning: 'Identity tenant; set together with ClientId (both or neither).' },
  { key: at('ClientId'), codec: optionalTextCodec, default: null, meaning: 'This API\'s client id; tokens must carry audience api://{ClientId} or {ClientId}.' },
  {
    key: at('Instance'),
    codec: baseUrlCodec,
    default: 'https://login.microsoftonline.com/',
    meaning: 'Identity provider base; authority is {Instance}{TenantId}/v2.0. A missing trailing / is added.',
  },
  { key: at('RequireHttpsMetadata'), codec: booleanCodec, default: true, meaning: 'false allows an http:// Instance (local identity providers, tests).' },
  { key: at('ValidIssuers'), codec: listCodec(nameCodec), default: [], meaning: 'Extra accepted issuers beside the discovered one.' },
  {
    key: at('AllowAnonymous'),
    codec: booleanCodec,
    default: false,
    meaning: 'Development only: every request is one synthetic principal resolving to the Default envelope.',
  },
  {
    key: at('AnonymousRoles'),
    codec: listCodec(nameCodec),
    default: [],
    meaning: 'Roles of the anonymous principal (anonymous mode only), e.g. Harness.Tools.Invoke, Harness.Evals.Execute.',
  },
  {
    key: at('JwksRefreshCooldown'),
    codec: timeSpanCodec,
    default: '00:00:30',
    meaning: 'Minimum time between JWKS refetches triggered by an unknown kid.',
  },
  {
    key: at('MaxTokenLifetime'),
    codec: timeSpanCodec,
    default: '365.00:00:00',
    meaning: 'Longest a token may be valid: exp at most this long after iat (after now when it has none); a longer-lived token is a 401. The default admits `portcullis token --ttl 365d`.',
  },
  {
    key: at('RefusalLogInterval'),
    codec: timeSpanCodec,
    default: '00:01:00',
    meaning: 'Refused tokens are logged as at most one line per reason per interval, carrying the count.',
  },
]);
