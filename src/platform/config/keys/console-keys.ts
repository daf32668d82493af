// Keys of AppConfig:Console: the web console the service serves at /console (DESIGN §12). The sign-in
// settings it publishes in /console/config.json come from here and from BundleExecution:Auth.
import { booleanCodec } from '../codecs/boolean-codec.js';
import { optionalTextCodec } from '../codecs/text-codecs.js';
import { defineKeys } from '../define-keys.js';

export const consoleKeys = defineKeys([
  { key: 'AppConfig:Console:Enabled', codec: booleanCodec, default: true, meaning: 'Serve the web console at /console (and redirect / to it).' },
  {
    key: 'AppConfig:Console:ClientId',
    codec: optionalTextCodec,
    default: null,
    defaultText: 'Auth:ClientId',
    meaning: 'OpenID client id the console signs in with (a public SPA client, authorization code + PKCE).',
  },
  {
    key: 'AppConfig:Console:Scope',
    codec: optionalTextCodec,
    default: null,
    defaultText: 'openid profile api://{ClientId}/.default',
    meaning: 'Scopes the console requests at sign-in; the access token must carry this API\'s audience.',
  },
]);
