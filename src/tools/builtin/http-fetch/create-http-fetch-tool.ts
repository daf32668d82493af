// The `http_fetch` built-in tool: GET or HEAD on hosts the operator allowlisted, defended against
// SSRF (address vetting on every hop, pinned connections, no second DNS answer) and bounded in
// time and size. A non-2xx answer is a success: the tool ran and `status` says what happened.
import { deadlineSignal } from '../../../platform/abort/index.js';
import { toolFailure, toolSuccess, type Tool, type ToolCallContext, type ToolResult } from '../../tool.js';
import { decodeBody } from './decode-body.js';
import { fetchErrorMessage } from './fetch-error-message.js';
import { followRedirects } from './follow-redirects.js';
import { createHostAllowlist } from './create-host-allowlist.js';
import { systemLookup, type HostLookup } from './host-lookup.js';
import { httpFetchLimits } from './http-fetch-limits.js';
import { httpFetchDescriptor } from './http-fetch-descriptor.js';
import { checkRequestHeaders } from './check-request-headers.js';

export interface HttpFetchToolOptions {
  /** `Tools:HttpFetch:AllowedHosts`: host names and IP literals; empty refuses every fetch. */
  readonly allowedHosts: readonly string[];
  readonly maxResponseBytes: number;
  /** Whole fetch, redirects included. */
  readonly timeoutSeconds: number;
  /** DNS resolution; injectable for tests. */
  readonly lookup?: HostLookup;
}

/** Throws on invalid options (a bad allowlist entry, a non-positive bound), so start-up fails loudly. */
export function createHttpFetchTool(options: HttpFetchToolOptions): Tool {
  if (!Number.isSafeInteger(options.maxResponseBytes) || options.maxResponseBytes < 1) throw new RangeError('maxResponseBytes must be a positive integer.');
  if (!Number.isFinite(options.timeoutSeconds) || options.timeoutSeconds <= 0) throw new RangeError('timeoutSeconds must be positive.');
  const allowlist = createHostAllowlist(options.allowedHosts);
  const lookup = options.lookup ?? systemLookup;

  async function invoke(operation: string, parameters: Readonly<Record<string, unknown>>, context: ToolCallContext): Promise<ToolResult> {
    if (operation !== 'get' && operation !== 'head') return toolFailure(`Unknown operation "${operation}"; http_fetch accepts get, head.`);
    const rawUrl = parameters['url'];
    if (typeof rawUrl !== 'string' || rawUrl.length > httpFetchLimits.maxUrlLength) return toolFailure('The url must be a string of at most 2048 characters.');
    const headers = checkRequestHeaders(parameters['headers']);
    if (!headers.ok) return toolFailure(headers.error);
    if (allowlist.isEmpty) return toolFailure('No hosts are allowed: Tools:HttpFetch:AllowedHosts is empty.');
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return toolFailure('The url is not a valid absolute URL.');
    }
    if (context.signal.aborted) return toolFailure('The request was cancelled.');

    const deadline = deadlineSignal(context.signal, Math.max(1, Math.round(options.timeoutSeconds * 1000)));
    const signal = deadline.signal;
    try {
      const outcome = await followRedirects({
        url,
        method: operation === 'get' ? 'GET' : 'HEAD',
        headers: { 'user-agent': 'Portcullis-http_fetch', accept: '*/*', ...headers.headers, 'accept-encoding': 'identity' },
        allowlist,
        lookup,
        maxBytes: options.maxResponseBytes,
        signal,
      });
      if (!outcome.ok) return toolFailure(outcome.error);
      const { response } = outcome;
      const contentType = response.headers['content-type'];
      return toolSuccess({
        url: outcome.url.href,
        status: response.status,
        headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')])),
        ...decodeBody(response.body, contentType, response.truncated),
        truncated: response.truncated,
      });
    } catch (error) {
      return toolFailure(
        fetchErrorMessage(error, {
          host: url.hostname,
          cancelled: context.signal.aborted,
          timedOut: deadline.timedOut,
          timeoutSeconds: options.timeoutSeconds,
        }),
      );
    } finally {
      deadline.clear();
    }
  }

  return { descriptor: httpFetchDescriptor, invoke };
}
