// Fastify's rewriteUrl: a path segment whose %-escapes do not decode to text (`%FF`, `%C3`, `%ZZ`, a
// lone `%`) names nothing that can exist, so it must be answered as the unknown id or path it is —
// after authentication, by its route — and not as the router's 400 before any hook runs. Such a
// segment is handed to the router as a NUL byte followed by its own text (every `%` escaped), so the
// route sees an id no provider can keep (storage/storable-key.ts) and answers its ordinary 404; a
// static segment becomes one no route has. The problem's `instance` still echoes the path as sent
// (`request.originalUrl`). Decodable URLs, the query string and the fragment are never touched.

/** The URL with each undecodable path segment made a NUL-led literal; the same string when all decode. */
export function decodableUrl(url: string): string {
  const percent = url.indexOf('%');
  if (percent === -1) return url;
  const end = pathEnd(url);
  if (percent >= end) return url;
  const path = url.slice(0, end);
  try {
    decodeURI(path);
    return url;
  } catch {
    // Below: only segments that do not decode are rewritten.
  }
  const segments = path.split('/').map((segment) => (decodes(segment) ? segment : `%00${segment.replaceAll('%', '%25')}`));
  return segments.join('/') + url.slice(end);
}

/** Where the path ends: the first `?` or `#`, as the router splits it. */
function pathEnd(url: string): number {
  const query = url.indexOf('?');
  const hash = url.indexOf('#');
  if (query === -1) return hash === -1 ? url.length : hash;
  return hash === -1 ? query : Math.min(query, hash);
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
