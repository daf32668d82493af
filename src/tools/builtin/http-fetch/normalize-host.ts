// One spelling per host for comparisons: lower case, no IPv6 brackets, no trailing dot.

/** The host as `URL.hostname` gives it, without IPv6 brackets or a trailing dot. */
export function normalizeHost(hostname: string): string {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return bare.toLowerCase().replace(/\.$/, '');
}
