// The security headers of every console response: a strict Content-Security-Policy (scripts and
// styles only from this origin, never inline, never eval; network only to this origin and the
// identity provider), no framing, no sniffing, no referrer. Deliberately not applied to /api routes,
// whose JSON answers need none of it.

export function contentSecurityPolicy(identityOrigin: string | null): string {
  const connect = identityOrigin === null ? "'self'" : `'self' ${identityOrigin}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    `connect-src ${connect}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function consoleSecurityHeaders(identityOrigin: string | null): Readonly<Record<string, string>> {
  return {
    'content-security-policy': contentSecurityPolicy(identityOrigin),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
