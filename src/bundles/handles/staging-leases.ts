// This instance's staged copies of bundles: handle → directory. A running run holds a lease so the
// directory is not removed under it; a retired directory (handle deleted or expired) is removed as
// soon as no lease remains. Removal failures are logged, never thrown at a caller.
import { rm } from 'node:fs/promises';

export interface StagingLease {
  readonly dir: string;
  /** Gives the lease back; idempotent. Removes a retired directory when it was the last. */
  release(): void;
}

export interface StagingLeasesLog {
  warn(details: object, message: string): void;
}

/** What `settled` answers when nothing is being removed: no promise made per call. */
const SETTLED: Promise<void> = Promise.resolve();

interface Staged {
  readonly ownerId: string;
  readonly dir: string;
  leases: number;
  retired: boolean;
}

export class StagingLeases {
  readonly #byHandle = new Map<string, Staged>();
  readonly #pending = new Set<Promise<void>>();
  readonly #log: StagingLeasesLog;
  readonly #remove: (dir: string) => Promise<void>;

  constructor(options: { log: StagingLeasesLog; remove?: (dir: string) => Promise<void> }) {
    this.#log = options.log;
    this.#remove = options.remove ?? ((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  }

  track(handle: string, ownerId: string, dir: string): void {
    const previous = this.#byHandle.get(handle);
    if (previous !== undefined && previous.dir !== dir) this.retire(handle);
    this.#byHandle.set(handle, { ownerId, dir, leases: 0, retired: false });
  }

  /** A lease on the handle's live directory here, or null when there is none (never staged here, or retired). */
  acquire(handle: string): StagingLease | null {
    const staged = this.#byHandle.get(handle);
    if (staged === undefined || staged.retired) return null;
    staged.leases += 1;
    let released = false;
    return {
      dir: staged.dir,
      release: () => {
        if (released) return;
        released = true;
        staged.leases -= 1;
        if (staged.retired && staged.leases === 0) this.#removeNow(staged.dir);
      },
    };
  }

  /** The handle is no longer reachable; its directory goes once no lease holds it. Idempotent. */
  retire(handle: string): void {
    const staged = this.#byHandle.get(handle);
    if (staged === undefined || staged.retired) return;
    staged.retired = true;
    this.#byHandle.delete(handle);
    if (staged.leases === 0) this.#removeNow(staged.dir);
  }

  /** Whether the handle of this owner is staged here and not retired. */
  tracks(handle: string, ownerId: string): boolean {
    return this.#byHandle.get(handle)?.ownerId === ownerId;
  }

  /** Handles staged here and not retired, with their owners. */
  handles(): Array<{ readonly handle: string; readonly ownerId: string }> {
    return [...this.#byHandle].map(([handle, staged]) => ({ handle, ownerId: staged.ownerId }));
  }

  /** Whether a directory belongs to a handle staged here (retired but still leased counts). */
  owns(dir: string): boolean {
    for (const staged of this.#byHandle.values()) if (staged.dir === dir) return true;
    return false;
  }

  leases(handle: string): number {
    return this.#byHandle.get(handle)?.leases ?? 0;
  }

  /** No removal is under way: `settled()` would resolve at once. */
  get idle(): boolean {
    return this.#pending.size === 0;
  }

  /** Resolves once every removal started so far has finished. */
  settled(): Promise<void> {
    return this.#pending.size === 0 ? SETTLED : this.#drain();
  }

  async #drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Shutdown: every staged directory goes, leased or not (another start stages again from the stored archive). */
  async close(): Promise<void> {
    for (const staged of this.#byHandle.values()) this.#removeNow(staged.dir);
    this.#byHandle.clear();
    await this.settled();
  }

  #removeNow(dir: string): void {
    const removal = this.#remove(dir)
      .catch((err: unknown) => this.#log.warn({ err }, 'removing a bundle staging directory failed'))
      .finally(() => this.#pending.delete(removal));
    this.#pending.add(removal);
  }
}
