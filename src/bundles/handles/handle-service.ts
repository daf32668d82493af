// The handle use cases, framework-free: register an uploaded archive (staged here, kept for the other
// instances), list the caller's handles, delete one (non-disclosing: the same silence whoever asks).
import type { Principal } from '../../platform/auth/index.js';
import { isoInstant, type Clock, type IdGenerator } from '../../platform/clock/index.js';
import { composeSystemPrompt } from '../../agent/index.js';
import type { RegisterBundleResponse } from '../schemas.js';
import type { BundleStager } from './bundle-stager.js';
import type { HandleStore } from './handle-store.js';

/** Writes the uploaded archive to `target`; resolves with the uploaded file name, if any. */
export type ReceiveArchive = (target: string) => Promise<string | undefined>;

export interface Page {
  readonly limit: number;
  readonly cursor: string | null;
}

export interface HandleSummary {
  readonly handle: string;
  readonly agentId: string;
  readonly expiresAt: string;
  readonly createdAt: string;
}

export class HandleService {
  readonly #stager: BundleStager;
  readonly #handles: HandleStore;
  readonly #clock: Clock;
  readonly #ids: IdGenerator;

  constructor(options: { readonly stager: BundleStager; readonly handles: HandleStore; readonly clock: Clock; readonly ids: IdGenerator }) {
    this.#stager = options.stager;
    this.#handles = options.handles;
    this.#clock = options.clock;
    this.#ids = options.ids;
  }

  /**
   * `admit`: told the archive's bytes once it is staged and checked, before any handle exists (an
   * Idempotency-Key's fingerprint is the file's); a throw refuses the upload and nothing is kept.
   */
  async register(principal: Principal, receive: ReceiveArchive, admit?: (bytes: () => Promise<Buffer>) => Promise<void>): Promise<RegisterBundleResponse> {
    return this.#stager.stageUpload(receive, async (staged, bytes) => {
      await admit?.(bytes);
      const handle = this.#ids.opaque();
      const expiresAt = await this.#handles.add(
        { handle, ownerId: principal.ownerId, dir: staged.dir, manifest: staged.manifest, systemPrompt: composeSystemPrompt(staged.manifest), createdAt: this.#clock.now() },
        bytes,
      );
      return { handle, expiresAt: isoInstant(expiresAt) };
    });
  }

  /** Non-disclosing: the same silence for an own, foreign, unknown or expired handle. */
  async delete(principal: Principal, handle: string): Promise<void> {
    await this.#handles.remove(principal, handle);
  }

  async list(principal: Principal, page: Page): Promise<{ handles: HandleSummary[]; nextCursor: string | null }> {
    const found = await this.#handles.list(principal, page);
    return {
      handles: found.handles.map((h) => ({ handle: h.handle, agentId: h.manifest.id, expiresAt: isoInstant(h.expiresAt), createdAt: isoInstant(h.createdAt) })),
      nextCursor: found.nextCursor,
    };
  }
}
