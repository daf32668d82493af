// Public surface of the `http_fetch` built-in tool.
export { createHttpFetchTool, type HttpFetchToolOptions } from './create-http-fetch-tool.js';
export type { HostLookup, ResolvedAddress } from './host-lookup.js';
export { isRestrictedAddress } from './is-restricted-address.js';
export { httpFetchLimits } from './http-fetch-limits.js';
export { createHostAllowlist, type HostAllowlist } from './create-host-allowlist.js';
export { systemLookup } from './host-lookup.js';
export { vetTarget, type VettedTarget, type TargetRefusal } from './vet-target.js';
export { sendRequest, type SendRequestOptions, type HopResponse } from './send-request.js';
