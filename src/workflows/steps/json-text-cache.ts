// The JSON text of run data, computed once per object: a run's input and each settled step are the same
// objects for every condition that reads them, so a run with many conditions serializes its data once
// rather than once per condition. Keys are held weakly: the texts go when the run's objects do. Values
// must not change once seen (a run's input and settled steps never do).
export class JsonTextCache {
  readonly #texts = new WeakMap<object, string>();

  /** JSON text of `value` (`null` for undefined); throws as JSON.stringify does (cycles, BigInt). */
  text(value: unknown): string {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
    let text = this.#texts.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      this.#texts.set(value, text);
    }
    return text;
  }
}
