// Who goes next when several owners wait for the same threads: one line per owner, and the next item
// is the head of the line whose owner has the fewest items running (below its cap), ties going to the
// owner served least recently (one never served first), then to the item that waited longest. So an
// owner with a long line is served in turn with the others rather than ahead of them. It bounds
// nothing itself: the pool decides what may wait.

export interface Taken<T> {
  readonly owner: string;
  readonly item: T;
}

interface Line<T> {
  readonly items: Array<{ readonly item: T; readonly seq: number }>;
  running: number;
  /** The turn at which this owner last had an item taken; -1 before its first. */
  lastServed: number;
}

export class FairQueue<T> {
  readonly #maxRunningPerOwner: number;
  /** Owners with something waiting or running; an owner with neither is forgotten. */
  readonly #lines = new Map<string, Line<T>>();
  #waiting = 0;
  #seq = 0;
  #turn = 0;

  constructor(maxRunningPerOwner: number) {
    if (!Number.isInteger(maxRunningPerOwner) || maxRunningPerOwner < 1) {
      throw new RangeError(`maxRunningPerOwner must be a positive integer, got ${maxRunningPerOwner}`);
    }
    this.#maxRunningPerOwner = maxRunningPerOwner;
  }

  /** Items waiting, over every owner. */
  get waiting(): number {
    return this.#waiting;
  }

  waitingFor(owner: string): number {
    return this.#lines.get(owner)?.items.length ?? 0;
  }

  /** Adds an item at the end of its owner's line. */
  push(owner: string, item: T): void {
    let line = this.#lines.get(owner);
    if (line === undefined) {
      line = { items: [], running: 0, lastServed: -1 };
      this.#lines.set(owner, line);
    }
    line.items.push({ item, seq: this.#seq++ });
    this.#waiting += 1;
  }

  /** Removes a waiting item (its caller gave up); false when it is not waiting. */
  withdraw(owner: string, item: T): boolean {
    const line = this.#lines.get(owner);
    const index = line?.items.findIndex((entry) => entry.item === item) ?? -1;
    if (line === undefined || index < 0) return false;
    line.items.splice(index, 1);
    this.#waiting -= 1;
    this.#forgetIdle(owner, line);
    return true;
  }

  /** The next item to run, now counted as running for its owner until finish(owner); undefined when none may run. */
  take(): Taken<T> | undefined {
    let chosen: [string, Line<T>] | undefined;
    for (const entry of this.#lines) {
      const line = entry[1];
      if (line.items.length === 0 || line.running >= this.#maxRunningPerOwner) continue;
      if (chosen === undefined || this.#before(line, chosen[1])) chosen = entry;
    }
    if (chosen === undefined) return undefined;
    const [owner, line] = chosen;
    const { item } = line.items.shift()!;
    this.#waiting -= 1;
    line.running += 1;
    line.lastServed = this.#turn++;
    return { owner, item };
  }

  /** An item taken for `owner` finished running. */
  finish(owner: string): void {
    const line = this.#lines.get(owner);
    if (line === undefined || line.running === 0) throw new Error('finish() without a running item');
    line.running -= 1;
    this.#forgetIdle(owner, line);
  }

  /** Removes and returns every waiting item (the pool is closing). */
  drain(): T[] {
    const items: T[] = [];
    for (const [owner, line] of this.#lines) {
      for (const entry of line.items.splice(0)) items.push(entry.item);
      this.#forgetIdle(owner, line);
    }
    this.#waiting = 0;
    return items;
  }

  #before(a: Line<T>, b: Line<T>): boolean {
    if (a.running !== b.running) return a.running < b.running;
    if (a.lastServed !== b.lastServed) return a.lastServed < b.lastServed;
    return a.items[0]!.seq < b.items[0]!.seq;
  }

  #forgetIdle(owner: string, line: Line<T>): void {
    if (line.items.length === 0 && line.running === 0) this.#lines.delete(owner);
  }
}
