// Public surface of the `http_fetch` built-in tool.
export { createHttpFetchTool, type HttpFetchToolOptions } from './create-http-fetch-tool.js';
export type { HostLookup, ResolvedAddress } from './host-lookup.js';
export { isRestrictedAddress } from './is-restricted-address.js';
export { httpFetchLimits } from './http-fetch-limits.js';
