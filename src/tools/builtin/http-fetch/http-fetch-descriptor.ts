// The http_fetch tool's catalog descriptor: flags per DESIGN §4 and its operations' parameter schemas.
// It holds no behaviour, so the catalog's schema can be read without building the tool.
import type { ToolDescriptor } from '../../tool.js';
import { httpFetchOperations } from './http-fetch-operations.js';

export const httpFetchDescriptor: ToolDescriptor = {
  name: 'http_fetch',
  description: 'Fetch a URL from a host the operator allowed (GET or HEAD); returns status, headers and body.',
  operations: httpFetchOperations,
  riskTier: 'High',
  isReadOnly: true,
  isConcurrencySafe: true,
  isDirectlyInvocable: true,
  reachesNetwork: true,
};
