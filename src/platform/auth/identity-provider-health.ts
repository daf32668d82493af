// Whether the identity provider's metadata could be loaded the last time it was needed, logged only
// when that changes (one warn line when it becomes unreachable, one info line when it is back), never
// per request: an outage with a thousand callers is two lines, not a thousand.
import type { AuthLog } from './authenticator.js';

export const IDENTITY_PROVIDER_UNREACHABLE_MESSAGE = 'identity provider unreachable: bearer tokens cannot be checked (requests answer 503)';
export const IDENTITY_PROVIDER_REACHABLE_MESSAGE = 'identity provider reachable again';

export class IdentityProviderHealth {
  readonly #log: AuthLog;
  #reachable: boolean | undefined;

  constructor(log: AuthLog) {
    this.#log = log;
  }

  /** undefined until the metadata was first needed. */
  get reachable(): boolean | undefined {
    return this.#reachable;
  }

  loaded(): void {
    if (this.#reachable === true) return;
    if (this.#reachable === false) (this.#log.info ?? this.#log.warn).call(this.#log, { event: 'identity_provider.reachable' }, IDENTITY_PROVIDER_REACHABLE_MESSAGE);
    this.#reachable = true;
  }

  failed(reason: string): void {
    if (this.#reachable === false) return;
    this.#reachable = false;
    this.#log.warn({ event: 'identity_provider.unreachable', reason }, IDENTITY_PROVIDER_UNREACHABLE_MESSAGE);
  }
}
