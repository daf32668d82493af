// Measures a parameter as serialized JSON so size bounds that JSON Schema cannot express (any-typed
// `data`, `schema`) can be enforced; it does not walk values that are not JSON.
/** Characters of `value` as JSON, or undefined when it is not JSON (undefined, a cycle, a BigInt). */
export function serializedLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}
