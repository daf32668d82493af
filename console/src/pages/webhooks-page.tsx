// My webhooks (DESIGN §14): the list, and subscribing a URL to events. The signing secret comes back
// only in the create answer, so it is shown once, here, until the page is left; the service never
// shows it again.
import { useState } from 'preact/hooks';
import type { CreatedWebhook, Webhook } from '../api/types';
import { Empty, ProblemNotice } from '../components/common';
import { useApi } from '../lib/api-context';
import { when } from '../lib/format';
import { href, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';
import { WEBHOOK_EVENT_TYPES } from '../lib/webhook-events';

export function WebhooksPage() {
  useTitle('Webhooks');
  const api = useApi();
  const webhooks = useAsync((signal) => api.get<{ webhooks: Webhook[] }>('/api/webhooks?limit=50', signal), [api]);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <section>
      <h1>Webhooks</h1>
      <p class="hint">Signed POSTs (Standard Webhooks) to your URL when your runs, approvals and schedules change.</p>
      {created === null ? null : <SecretOnce webhook={created} />}
      <div class="split">
        <div class="pane">
          <h2>New webhook</h2>
          <WebhookForm
            onCreated={(webhook) => {
              setCreated(webhook);
              webhooks.reload();
            }}
          />
        </div>
        <div class="pane wide">
          <h2>My webhooks</h2>
          <ProblemNotice error={webhooks.error} />
          {webhooks.value?.webhooks.length === 0 ? <Empty>No webhooks yet.</Empty> : null}
          {webhooks.value === undefined || webhooks.value.webhooks.length === 0 ? null : (
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Description</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {webhooks.value.webhooks.map((webhook) => (
                  <tr key={webhook.id}>
                    <td class="wrap">
                      <a href={href('webhooks', webhook.id)}>{webhook.url}</a>
                    </td>
                    <td>{webhook.events.join(', ')}</td>
                    <td>{webhook.description ?? '—'}</td>
                    <td>{when(webhook.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </section>
  );
}

function WebhookForm({ onCreated }: { onCreated: (webhook: CreatedWebhook) => void }) {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<ReadonlySet<string>>(new Set());
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const create = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      // In the service's order, whatever order they were ticked in.
      const chosen = WEBHOOK_EVENT_TYPES.filter((name) => events.has(name));
      const webhook = await api.send<CreatedWebhook>('POST', '/api/webhooks', { url: url.trim(), events: chosen, ...(description.trim() === '' ? {} : { description: description.trim() }) });
      setUrl('');
      setEvents(new Set());
      setDescription('');
      onCreated(webhook);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (name: string, on: boolean): void => {
    const next = new Set(events);
    if (on) next.add(name);
    else next.delete(name);
    setEvents(next);
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      <label for="webhook-url">URL</label>
      <input id="webhook-url" type="url" required value={url} onInput={(event) => setUrl(event.currentTarget.value)} placeholder="https://hooks.example.com/portcullis" />
      <fieldset>
        <legend>Events</legend>
        {WEBHOOK_EVENT_TYPES.map((name) => (
          <label key={name} class="check">
            <input type="checkbox" name="event" value={name} checked={events.has(name)} onChange={(event) => toggle(name, event.currentTarget.checked)} /> <code>{name}</code>
          </label>
        ))}
      </fieldset>
      <label for="webhook-description">
        Description <span class="required">(optional)</span>
      </label>
      <input id="webhook-description" type="text" maxLength={500} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || events.size === 0}>
          {busy ? 'Creating…' : 'Create webhook'}
        </button>
      </div>
      <ProblemNotice error={error} context="The webhook was not created" />
    </form>
  );
}

/** The signing secret, the one time it exists outside the service: copy it now or lose it. */
function SecretOnce({ webhook }: { webhook: CreatedWebhook }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(webhook.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser did not allow copying: select the secret and copy it by hand.');
    }
  };
  return (
    <section class="notice notice-secret" aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret of the new webhook</h2>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Leaving or reloading this page loses it; the service answers it only once,
        here. Your receiver checks each delivery's <code>webhook-signature</code> with it.
      </p>
      <label for="webhook-secret">Signing secret</label>
      <input id="webhook-secret" class="code" type="text" readOnly spellcheck={false} value={webhook.secret} onFocus={(event) => event.currentTarget.select()} />
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          Copy secret
        </button>
        <a class="button" href={href('webhooks', webhook.id)}>
          Open the webhook
        </a>
      </div>
      <p role="status" class="hint">
        {copied}
      </p>
    </section>
  );
}
