// Samples this process's resident set size while an attack runs, so a test can assert the service
// (running in the same process) stayed bounded. A sampler interval plus explicit samples at the
// moments that matter (after each request); the peak growth over the starting point is reported.
export interface RssProbe {
  /** Records one sample now. */
  sample(): void;
  /** Largest RSS seen minus the RSS at start, in MiB. */
  peakGrowthMiB(): number;
  stop(): void;
}

const MiB = 1024 * 1024;

export function startRssProbe(intervalMs = 5): RssProbe {
  (globalThis as { gc?: () => void }).gc?.();
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
    stop: () => clearInterval(timer),
  };
}
