// Where the service is and who the caller is: `--url`/`--token`, else PORTCULLIS_URL and
// PORTCULLIS_TOKEN, else the local default (DESIGN §1) and no token (anonymous Development mode).
import { createClient, type PortcullisClient } from '../../client/index.js';
import type { OptionSpec } from './command-spec.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export const CONNECTION_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  url: { type: 'string', value: 'URL', description: `The service's origin (else env PORTCULLIS_URL, else ${DEFAULT_URL}).` },
  token: { type: 'string', value: 'TOKEN', description: 'Bearer token (else env PORTCULLIS_TOKEN; none in anonymous mode).' },
  json: { type: 'boolean', default: false, description: 'Print the result as JSON on stdout instead of text.' },
};

export function connect(values: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>): { client: PortcullisClient; url: string } {
  const url = (typeof values.url === 'string' ? values.url : undefined) ?? env.PORTCULLIS_URL ?? DEFAULT_URL;
  const token = (typeof values.token === 'string' ? values.token : undefined) ?? env.PORTCULLIS_TOKEN;
  return { url, client: createClient({ baseUrl: url, ...(token !== undefined && token !== '' ? { token } : {}) }) };
}
