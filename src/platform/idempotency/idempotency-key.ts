// The form of an Idempotency-Key (DESIGN.md §14): 1–255 characters of [A-Za-z0-9._:-].
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9._:-]{1,255}$';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && KEY.test(value);
}
