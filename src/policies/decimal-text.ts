// A JSON number as the text of a Cedar `decimal` (DESIGN §18: "other numbers → decimal"). Cedar's
// decimals have exactly 4 fractional digits and the range of a 64-bit integer scaled by 10^4. A
// number that needs more digits is refused, never rounded: rounding 100.00001 to 100.0000 would let
// `amount <= decimal("100.0")` pass a call above the limit. The number's shortest round-trip text is
// what is read, so 0.1 + 0.2 (0.30000000000000004) is refused and 0.3 is not.
export type DecimalText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: 'range' | 'precision' };

const MAX_WHOLE = 922337203685477n;
const MAX_FRACTION = { positive: 5807, negative: 5808 } as const;

/** `value` must be finite (the caller refuses NaN and ±Infinity first). */
export function decimalText(value: number): DecimalText {
  if (Math.abs(value) >= 1e15) return { ok: false, problem: 'range' };
  const text = Number.isInteger(value) ? `${Math.abs(value)}.0` : String(Math.abs(value));
  if (text.includes('e')) return { ok: false, problem: 'precision' };
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > 4) return { ok: false, problem: 'precision' };
  const negative = value < 0;
  if (!withinRange(BigInt(whole), Number(fraction.padEnd(4, '0')), negative)) return { ok: false, problem: 'range' };
  return { ok: true, text: negative ? `-${text}` : text };
}

function withinRange(whole: bigint, fraction: number, negative: boolean): boolean {
  if (whole !== MAX_WHOLE) return whole < MAX_WHOLE;
  return fraction <= (negative ? MAX_FRACTION.negative : MAX_FRACTION.positive);
}
