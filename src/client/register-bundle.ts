// Uploads a bundle archive (POST /api/bundles, multipart field `file`) and answers the handle.
import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';
import { unwrap } from './unwrap.js';

export type RegisteredBundle = components['schemas']['RegisterBundleResponse'];

export async function registerBundle(api: Client<paths>, archive: Blob | Uint8Array, fileName = 'bundle.zip'): Promise<RegisteredBundle> {
  const form = new FormData();
  form.append('file', archive instanceof Blob ? archive : new Blob([archive]), fileName);
  // The document describes the multipart body's field; the body itself is sent as the FormData.
  return unwrap(api.POST('/api/bundles', { body: form as unknown as { file: string }, bodySerializer: (body) => body as unknown as FormData }));
}
