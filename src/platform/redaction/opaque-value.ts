// Objects the value walkers leave alone: they hold no strings worth inspecting (dates, binary data)
// or keep their state in internal slots that a property-by-property copy would lose.

/** Values with no strings worth inspecting, or whose internal slots a copy would lose. */
export function isOpaque(value: object): boolean {
  return (
    value instanceof Date ||
    value instanceof RegExp ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    value instanceof WeakMap ||
    value instanceof WeakSet ||
    value instanceof Promise
  );
}
