// Hash routes (`#/workflows/<id>`, optionally `?key=value` after the path, for prefilled forms): deep
// links work without any server-side fallback, and the route never travels to the service.
import { useEffect, useState } from 'preact/hooks';

export function currentRoute(): string[] {
  const hash = window.location.hash.startsWith('#/') ? window.location.hash.slice(2) : 'approvals';
  return hash.split('?', 1)[0]!.split('/').filter((part) => part !== '').map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
}

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = (): void => setRoute(currentRoute());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** `#/a/b` from segments, each encoded. */
export function href(...segments: string[]): string {
  return `#/${segments.map(encodeURIComponent).join('/')}`;
}

/** `#/a/b?k=v&k=w`: a link to a page with the query it reads (a repeated key for a list). */
export function hrefWithQuery(segments: readonly string[], query: Record<string, string | readonly string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of typeof value === 'string' ? [value] : (value ?? [])) params.append(key, item);
  }
  const text = params.toString();
  return text === '' ? href(...segments) : `${href(...segments)}?${text}`;
}

/** The query of the current hash route (read once, when a page that takes one mounts). */
export function currentQuery(): URLSearchParams {
  const at = window.location.hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : window.location.hash.slice(at + 1));
}

export function navigate(...segments: string[]): void {
  window.location.hash = href(...segments).slice(1);
}

/** Names the page in the tab title (and for screen readers announcing the document). */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — Portcullis console`;
  }, [title]);
}
