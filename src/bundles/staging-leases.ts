// The lifecycle of staging directories: a running run holds a lease so its directory is not removed
// under it; a retired directory (handle deleted or expired) is removed as soon as no lease remains.
// Removal failures are logged, never thrown at a caller.
import { rm } from 'node:fs/promises';

export interface StagingLease {
  /** Gives the lease back; idempotent. Removes a retired directory when it was the last. */
  release(): void;
}

export interface StagingLeasesLog {
  warn(details: object, message: string): void;
}

interface DirectoryState {
  leases: number;
  retired: boolean;
}

export class StagingLeases {
  readonly #dirs = new Map<string, DirectoryState>();
  readonly #pending = new Set<Promise<void>>();
  readonly #log: StagingLeasesLog;
  readonly #remove: (dir: string) => Promise<void>;

  constructor(options: { log: StagingLeasesLog; remove?: (dir: string) => Promise<void> }) {
    this.#log = options.log;
    this.#remove = options.remove ?? ((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  }

  track(dir: string): void {
    this.#dirs.set(dir, { leases: 0, retired: false });
  }

  /** A lease on a live directory, or null once it was retired. */
  acquire(dir: string): StagingLease | null {
    const state = this.#dirs.get(dir);
    if (state === undefined || state.retired) return null;
    state.leases += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        state.leases -= 1;
        if (state.retired && state.leases === 0) this.#removeNow(dir);
      },
    };
  }

  /** The directory is no longer reachable; it goes once no lease holds it. Idempotent. */
  retire(dir: string): void {
    const state = this.#dirs.get(dir);
    if (state === undefined || state.retired) return;
    state.retired = true;
    if (state.leases === 0) this.#removeNow(dir);
  }

  leases(dir: string): number {
    return this.#dirs.get(dir)?.leases ?? 0;
  }

  /** Resolves once every removal started so far has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  /** Shutdown: every directory goes (handles do not survive a restart), leased or not. */
  async close(): Promise<void> {
    for (const dir of [...this.#dirs.keys()]) this.#removeNow(dir);
    await this.settled();
  }

  #removeNow(dir: string): void {
    this.#dirs.delete(dir);
    const removal = this.#remove(dir)
      .catch((err: unknown) => this.#log.warn({ err }, 'removing a bundle staging directory failed'))
      .finally(() => this.#pending.delete(removal));
    this.#pending.add(removal);
  }
}
