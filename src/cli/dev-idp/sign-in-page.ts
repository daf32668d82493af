// The dev IdP's "sign in as" form: pick a subject and roles, no password (it is a development
// provider). Plain HTML with every value escaped, its one style block allowed by hash, no script.
import { createHash } from 'node:crypto';

const STYLE =
  'body{font:16px system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1d21}' +
  'main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}' +
  'h1{font-size:1.3rem;margin-top:0}label{display:block;margin:1rem 0 .3rem;font-weight:600}' +
  'input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #6b7280;border-radius:4px}' +
  'p.hint{font-size:.85rem;color:#4b5563;margin:.3rem 0 0}' +
  'button{margin-top:1.5rem;padding:.6rem 1.2rem;font:inherit;background:#1d4ed8;color:#fff;border:0;border-radius:4px;cursor:pointer}' +
  'p.error{color:#b91c1c}';

const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

export const DEFAULT_FORM_ROLES = 'Harness.Tools.Invoke Harness.Evals.Execute';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The CSP of the dev IdP's pages: the form may post here and be redirected to the client. */
export function pageSecurityPolicy(redirectOrigin: string | null): string {
  const formAction = redirectOrigin === null ? "'self'" : `'self' ${redirectOrigin}`;
  return `default-src 'none'; style-src '${STYLE_HASH}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export function signInPage(options: { action: string; fields: Record<string, string>; clientId: string; error?: string }): string {
  const hidden = Object.entries(options.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return page(
    'Sign in — Portcullis dev identity provider',
    `<h1>Sign in to the dev identity provider</h1>
<p>Client <code>${escapeHtml(options.clientId)}</code> asks who you are. There is no password: this provider is for development only.</p>
${options.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(options.error)}</p>`}
<form method="post" action="${escapeHtml(options.action)}">${hidden}
<label for="sub">Subject (sub)</label>
<input id="sub" name="sub" required maxlength="128" pattern="[A-Za-z0-9._:@\\-]+" value="alice" autocomplete="username">
<p class="hint">Letters, digits and . _ : @ - only.</p>
<label for="roles">Roles</label>
<input id="roles" name="roles" maxlength="1024" value="${escapeHtml(DEFAULT_FORM_ROLES)}">
<p class="hint">Separated by spaces or commas; leave empty for none.</p>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function errorPage(message: string): string {
  return page('Sign-in request refused — Portcullis dev identity provider', `<h1>Sign-in request refused</h1><p role="alert">${escapeHtml(message)}</p>`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
