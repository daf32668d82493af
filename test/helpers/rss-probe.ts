// Measures this process's memory while an attack runs, so a test can assert the service (running in
// the same process) stayed bounded: the peak resident set size seen (a sampler interval plus explicit
// samples at the moments that matter) and, after a full garbage collection, the heap still retained.
// Peak RSS shows what an attack makes the host allocate at once; retained heap what it makes it keep.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface RssProbe {
  /** Records one RSS sample now. */
  sample(): void;
  /** Largest RSS seen minus the RSS at start, in MiB. */
  peakGrowthMiB(): number;
  /** Heap (JS, external and array buffers) left after a full collection, minus the same at start, in MiB. */
  retainedGrowthMiB(): number;
  stop(): void;
}

const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function retained(): number {
  collect();
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

export function startRssProbe(intervalMs = 5): RssProbe {
  const heapAtStart = retained();
  const start = process.memoryUsage.rss();
  let peak = start;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, intervalMs);
  return {
    sample,
    peakGrowthMiB: () => {
      sample();
      return (peak - start) / MiB;
    },
    retainedGrowthMiB: () => (retained() - heapAtStart) / MiB,
    stop: () => clearInterval(timer),
  };
}
