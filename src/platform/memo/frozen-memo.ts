// What is made of frozen data, made once: frozen (stored) data never changes, so neither does what a
// pure function makes of it. A 1,000-step run's start and its steps ask the same questions of the
// same stored definition; each answer is kept beside the frozen object it was made of (a WeakMap, so
// it goes when the object does). Anything not frozen is answered anew every time.
export function madeOnce<K extends object, V>(made: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  if (!Object.isFrozen(key)) return make(key);
  let value = made.get(key);
  if (value === undefined) {
    value = make(key);
    made.set(key, value);
  }
  return value;
}
