// Measures real HTTP latency of one URL (e.g. /healthz) from a worker thread, so the probe keeps time
// and keeps asking even while the event loop it measures is blocked: a request in flight across a
// stall takes as long as the stall. Requests go one after another with a short pause between them.
import { Worker } from 'node:worker_threads';

export interface LatencyReport {
  /** Latency of each request, in milliseconds, in the order they were made. */
  readonly samples: readonly number[];
  readonly max: number;
}

export interface LatencyProbe {
  /** Stops asking once the request in flight answers; resolves with every latency measured. */
  stop(): Promise<LatencyReport>;
}

// Plain JavaScript (no loader needed in the thread): one unmeasured request (fetch itself starting up
// and the connection opening are not the server's latency), then fetch, record, pause until told to stop.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let stopping = false;
parentPort.on('message', () => { stopping = true; });
(async () => {
  await (await fetch(workerData.url)).arrayBuffer();
  parentPort.postMessage('warm');
  const samples = [];
  while (!stopping) {
    const started = performance.now();
    const res = await fetch(workerData.url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error('probe answered ' + res.status);
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, workerData.pauseMs));
  }
  parentPort.postMessage(samples);
})().catch((error) => { parentPort.postMessage({ error: String(error) }); });
`;

/** Resolves once the probe is warm and measuring. */
export async function startLatencyProbe(url: string, pauseMs = 5): Promise<LatencyProbe> {
  const worker = new Worker(PROBE, { eval: true, workerData: { url, pauseMs } });
  let warm!: () => void;
  const measuring = new Promise<void>((resolve) => (warm = resolve));
  const report = new Promise<LatencyReport>((resolve, reject) => {
    worker.on('message', (message: unknown) => {
      if (message === 'warm') return warm();
      void worker.terminate();
      if (!Array.isArray(message)) return reject(new Error(`latency probe failed: ${JSON.stringify(message)}`));
      const samples = message as number[];
      resolve({ samples, max: Math.max(0, ...samples) });
    });
    worker.once('error', reject);
  });
  // A probe that fails before it is warm rejects here rather than leaving the caller waiting.
  await Promise.race([measuring, report]);
  return {
    stop: () => {
      worker.postMessage('stop');
      return report;
    },
  };
}
