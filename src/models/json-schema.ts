/** A JSON Schema object. */
export type JsonSchema = Readonly<Record<string, unknown>>;
