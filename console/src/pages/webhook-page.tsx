// One of my webhooks (DESIGN §14): what it hears, its deliveries newest first (refreshed while one is
// pending, older ones on demand), a test event sent to it, and delete. Never its secret: the service
// does not keep it showable.
import { useEffect, useState } from 'preact/hooks';
import type { Webhook, WebhookDelivery } from '../api/types';
import { ConfirmButton } from '../components/confirm-button';
import { ActionOutcome, Badge, Empty, Facts, ProblemNotice } from '../components/common';
import { useApi } from '../lib/api-context';
import { duration, when } from '../lib/format';
import { href, navigate, useTitle } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';
import { usePages } from '../lib/use-pages';

const PENDING_REFRESH_MS = 1500;
const IDLE_REFRESH_MS = 15_000;

export function WebhookPage({ webhookId }: { webhookId: string }) {
  useTitle('Webhook');
  const api = useApi();
  const path = `/api/webhooks/${encodeURIComponent(webhookId)}`;
  const webhook = useAsync((signal) => api.get<Webhook>(path, signal), [api, path]);
  const [pending, setPending] = useState(false);
  const deliveries = usePages<WebhookDelivery>(`${path}/deliveries`, 'deliveries', (d) => d.deliveryId, pending ? PENDING_REFRESH_MS : IDLE_REFRESH_MS);
  const anyPending = deliveries.items?.some((delivery) => delivery.status === 'Pending') ?? false;
  // Watched closely while a delivery is pending (a test event just sent), idly otherwise.
  useEffect(() => setPending(anyPending), [anyPending]);
  const action = useAction();
  const sendTest = (): Promise<void> =>
    action.run(async () => {
      await api.send('POST', `${path}/test`);
      deliveries.refresh();
      return 'A webhook.test event was queued: its delivery is listed below.';
    });
  const remove = (): Promise<void> =>
    action.run(async () => {
      await api.send('DELETE', path);
      navigate('webhooks');
    });

  const value = webhook.value;
  return (
    <section>
      <h1>Webhook</h1>
      <p class="meta">
        <a href={href('webhooks')}>all webhooks</a>
      </p>
      <ProblemNotice error={webhook.error} />
      {value === undefined ? null : (
        <>
          <Facts
            items={[
              ['URL', <span class="wrap">{value.url}</span>],
              ['Events', value.events.join(', ')],
              ['Description', value.description ?? '—'],
              ['Created', when(value.createdAt)],
              ['Id', <code>{value.id}</code>],
            ]}
          />
          <div class="actions">
            <button type="button" class="primary" disabled={action.busy} onClick={() => void sendTest()}>
              Send test event
            </button>
            <ConfirmButton
              label="Delete webhook"
              question="Delete this webhook? Deliveries not yet made are dropped, and nothing more is sent to its URL."
              confirmLabel="Yes, delete it"
              onConfirm={remove}
            />
          </div>
          <ActionOutcome action={action} />
        </>
      )}
      <h2>Deliveries</h2>
      <ProblemNotice error={deliveries.error} />
      {deliveries.items?.length === 0 ? <Empty>Nothing delivered yet. “Send test event” sends one.</Empty> : null}
      {deliveries.items === undefined || deliveries.items.length === 0 ? null : <DeliveryTable deliveries={deliveries.items} />}
      {deliveries.more ? (
        <button type="button" onClick={deliveries.loadMore}>
          Load older deliveries
        </button>
      ) : null}
    </section>
  );
}

function DeliveryTable({ deliveries }: { deliveries: readonly WebhookDelivery[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Attempts</th>
          <th scope="col">Status</th>
          <th scope="col">Answer</th>
          <th scope="col">Took</th>
          <th scope="col">Next attempt</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.deliveryId} data-delivery={delivery.deliveryId}>
            <td>
              <code>{delivery.type}</code>
            </td>
            <td>{delivery.attempt}</td>
            <td>
              <Badge status={delivery.status} />
            </td>
            <td>{delivery.responseStatus === null ? 'none' : `HTTP ${delivery.responseStatus}`}</td>
            <td>{delivery.durationMs === null ? '—' : duration(delivery.durationMs)}</td>
            <td>{when(delivery.nextAttemptAt)}</td>
            <td>{when(delivery.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
