// Normalises a configured Endpoint into the SDK's base URL: trailing slashes removed, and a bare
// origin (`http://localhost:11434`) given the provider's usual API path (`/v1`), which is where
// OpenAI-compatible servers and Anthropic-compatible proxies serve. A path that is given is kept.
export function apiBaseUrl(endpoint: string, defaultPath: string, key = 'Endpoint'): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`AppConfig:AI:ChatModel:${key} is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`AppConfig:AI:ChatModel:${key} must be an http or https URL.`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`AppConfig:AI:ChatModel:${key} must not carry credentials, a query or a fragment.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? defaultPath : path}`;
}

/** The origin alone, for logs: never credentials, paths or query strings. */
export function endpointOrigin(endpoint: string | null): string | null {
  if (endpoint === null) return null;
  try {
    return new URL(endpoint).origin;
  } catch {
    return null;
  }
}
