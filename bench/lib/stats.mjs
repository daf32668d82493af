// Small statistics and printing helpers shared by the benchmarks: medians with min..max, ratios.
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The nearest-rank percentile `p` (0..100] of a sample. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const round = (value, digits = 1) => Number(value.toFixed(digits));

/** `{ median, min, max }` of a sample, rounded. */
export function spread(values, digits = 1) {
  return { median: round(median(values), digits), min: round(Math.min(...values), digits), max: round(Math.max(...values), digits) };
}

/** "median (min..max)" for the printed table. */
export function show({ median: m, min, max }, unit = '') {
  return `${m.toLocaleString('en-US')}${unit} (${min.toLocaleString('en-US')}..${max.toLocaleString('en-US')})`;
}

/**
 * Runs `rounds` alternated rounds over the named sides (A B, then B A, ...), so drift on a shared
 * machine (other load, GC, CPU frequency) falls on both sides alike. `measure(side)` returns a number
 * or an object of numbers per round; the result maps each side to its samples.
 */
export async function alternate(sides, rounds, measure) {
  const samples = Object.fromEntries(sides.map((side) => [side, []]));
  for (let i = 0; i < rounds; i += 1) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) samples[side].push(await measure(side, i));
  }
  return samples;
}
