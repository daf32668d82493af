// The one way the console talks to the service: same-origin fetch of /api routes with the bearer
// token (when signed in) in the Authorization header — never in a URL. A 401 signs the console out.
import { ApiError, problemOf } from './api-error';
import { readJsonFrames } from './sse';

export interface ApiOptions {
  readonly token: () => string | null;
  readonly onUnauthorized: () => void;
}

export interface Api {
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  upload<T>(path: string, form: FormData): Promise<T>;
  /** The response body as a Blob (downloads). */
  blob(path: string): Promise<Blob>;
  /** Follows an SSE route until it ends, the signal aborts or the connection drops; with a `body`, a POST of it as JSON. */
  stream<T>(path: string, onFrame: (frame: T) => void, signal: AbortSignal, body?: unknown): Promise<void>;
}

export function createApi(options: ApiOptions): Api {
  async function call(path: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Response> {
    const token = options.token();
    const response = await fetch(path, {
      ...init,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...init.headers },
    });
    if (response.ok) return response;
    const error = await problemOf(response);
    if (error.status === 401) options.onUnauthorized();
    throw error;
  }
  const json = async <T>(response: Response): Promise<T> => (response.status === 204 ? (undefined as T) : ((await response.json()) as T));

  return {
    get: async (path, signal) => json(await call(path, { method: 'GET', ...(signal ? { signal } : {}) })),
    send: async (method, path, body, signal) =>
      json(
        await call(path, {
          method,
          ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
          ...(signal ? { signal } : {}),
        }),
      ),
    upload: async (path, form) => json(await call(path, { method: 'POST', body: form })),
    blob: async (path) => (await call(path, { method: 'GET', headers: { accept: '*/*' } })).blob(),
    stream: async (path, onFrame, signal, body) => {
      const response = await call(
        path,
        body === undefined
          ? { method: 'GET', signal, headers: { accept: 'text/event-stream' } }
          : { method: 'POST', signal, body: JSON.stringify(body), headers: { accept: 'text/event-stream', 'content-type': 'application/json' } },
      );
      await readJsonFrames(response, onFrame);
    },
  };
}

export { ApiError };
