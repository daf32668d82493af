// The sign-in page of a service with an identity provider: "Sign in" (OpenID Connect, code + PKCE)
// or paste a bearer token (from `portcullis token`, or any client of the same provider).
import { useState } from 'preact/hooks';
import { acceptPastedToken, beginSignIn, type Session } from './session';

export function SignInPage({ session }: { session: Session }) {
  const [pasted, setPasted] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const authority = session.auth.mode === 'oidc' ? session.auth.authority : '';

  const signIn = async (): Promise<void> => {
    setRedirecting(true);
    setProblem(null);
    try {
      await beginSignIn();
    } catch {
      setRedirecting(false);
      setProblem('The identity provider could not be reached.');
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Portcullis</h1>
      {session.notice === null ? null : (
        <p class="notice" role="status">
          {session.notice}
        </p>
      )}
      <section aria-labelledby="oidc-heading">
        <h2 id="oidc-heading">With your identity provider</h2>
        <p>
          Signs in at <code>{authority}</code> and comes back here.
        </p>
        <button type="button" class="primary" onClick={() => void signIn()} disabled={redirecting}>
          {redirecting ? 'Redirecting…' : 'Sign in'}
        </button>
      </section>
      <section aria-labelledby="paste-heading">
        <h2 id="paste-heading">Or paste a bearer token</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setProblem(acceptPastedToken(pasted));
          }}
        >
          <label for="pasted-token">Access token (JWT)</label>
          <textarea id="pasted-token" rows={4} value={pasted} onInput={(event) => setPasted(event.currentTarget.value)} spellcheck={false} autocomplete="off" />
          <p class="hint">Kept in this tab only (session storage) and sent only to this service, in the Authorization header.</p>
          <button type="submit">Use this token</button>
        </form>
      </section>
      {problem === null ? null : (
        <p class="notice notice-error" role="alert">
          {problem}
        </p>
      )}
    </main>
  );
}
