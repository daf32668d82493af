// The operations of the `http_fetch` tool and their parameter schemas.
import type { ToolOperation } from '../../tool.js';
import { httpFetchLimits } from './http-fetch-limits.js';

const parameters = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', minLength: 1, maxLength: httpFetchLimits.maxUrlLength, description: 'An http or https URL on an allowed host.' },
    headers: {
      type: 'object',
      description: 'Extra request headers; Host, Cookie, Accept-Encoding, hop-by-hop and proxy headers are refused.',
      maxProperties: httpFetchLimits.maxRequestHeaders,
      propertyNames: { maxLength: httpFetchLimits.maxHeaderNameLength, pattern: httpFetchLimits.headerNamePattern },
      additionalProperties: { type: 'string', maxLength: httpFetchLimits.maxHeaderValueLength },
    },
  },
} as const;

export const httpFetchOperations: readonly ToolOperation[] = [
  {
    name: 'get',
    description: 'GET a URL (redirects followed, up to 5); returns status, headers and the body, capped in size.',
    parameters,
  },
  {
    name: 'head',
    description: 'HEAD a URL (redirects followed, up to 5); returns status and headers with an empty body.',
    parameters,
  },
];
