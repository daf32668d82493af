// Hash routes (`#/workflows/<id>`): deep links work without any server-side fallback, and the route
// never travels to the service.
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

export function navigate(...segments: string[]): void {
  window.location.hash = href(...segments).slice(1);
}

/** Names the page in the tab title (and for screen readers announcing the document). */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — Portcullis console`;
  }, [title]);
}
