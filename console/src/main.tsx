// Entry point: read the service's sign-in document, settle who we are (completing an OpenID Connect
// redirect when this load is one), then render the shell.
import { render } from 'preact';
import { App } from './app';
import { loadConsoleConfig } from './auth/console-config';
import { startSession } from './auth/session';
import './styles.css';

const root = document.getElementById('app')!;

async function boot(): Promise<void> {
  await startSession(await loadConsoleConfig());
  root.textContent = '';
  render(<App />, root);
}

boot().catch(() => {
  root.textContent = '';
  const message = document.createElement('p');
  message.className = 'notice notice-error';
  message.setAttribute('role', 'alert');
  message.textContent = 'The console could not start: the service did not answer its configuration request.';
  root.append(message);
});
