// What the register row's file writes cost, whichever way they are issued (issue 36, row "register
// ≤ 1.2 × unzip"): 2,000 files of 6–18 KB (24 MB, the register benchmark's expanded size) into a fresh
// directory, opened O_CREAT|O_EXCL|O_NOFOLLOW as staging opens them, four ways, rounds alternated:
//   promises   fs/promises open, write, close, four files at once (what write-staging-tree.ts does)
//   callbacks  the callback API, four at once (no FileHandle, no promise per step)
//   worker     one worker thread doing every open, write and close synchronously
//   sync       the same synchronous calls on the main thread (what `unzip` does; a service cannot)
// Wall time says what the disk allows; process CPU what each way costs the service.
//   node bench/staging-writes/run.mjs        BENCH_ROUNDS (default 7)
import { randomBytes } from 'node:crypto';
import { close as closeCb, closeSync, constants, mkdirSync, open as openCb, openSync, rmSync, write as writeCb, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const FILES = 2000;
const AT_ONCE = Number(process.env.BENCH_AT_ONCE ?? 4); // files at once for promises and callbacks (staging: FILE_WRITES_AT_ONCE = 4)
const FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const contents = Array.from({ length: FILES }, (_, i) => randomBytes(6000 + ((i * 37) % 12000)));

async function lanes(work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < FILES) await work(next++);
    }),
  );
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { openSync, writeSync, closeSync } = require('node:fs');
parentPort.on('message', ({ dir, contents, flags }) => {
  for (let i = 0; i < contents.length; i += 1) {
    const fd = openSync(dir + '/f' + i, flags, 0o600);
    try { writeSync(fd, contents[i]); } finally { closeSync(fd); }
  }
  parentPort.postMessage('done');
});`;

const ways = {
  promises: (dir) =>
    lanes(async (i) => {
      const handle = await open(join(dir, `f${i}`), FLAGS, 0o600);
      try {
        await handle.write(contents[i]);
      } finally {
        await handle.close();
      }
    }),
  callbacks: (dir) =>
    lanes(
      (i) =>
        new Promise((resolve, reject) =>
          openCb(join(dir, `f${i}`), FLAGS, 0o600, (openError, fd) => {
            if (openError) return reject(openError);
            writeCb(fd, contents[i], 0, contents[i].length, null, (writeError) => closeCb(fd, (closeError) => (writeError || closeError ? reject(writeError ?? closeError) : resolve())));
          }),
        ),
    ),
  worker: (dir) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.once('message', () => void worker.terminate().then(() => resolve()));
      worker.once('error', reject);
      worker.postMessage({ dir, contents, flags: FLAGS });
    }),
  sync: (dir) => {
    for (let i = 0; i < FILES; i += 1) {
      const fd = openSync(join(dir, `f${i}`), FLAGS, 0o600);
      try {
        writeSync(fd, contents[i]);
      } finally {
        closeSync(fd);
      }
    }
  },
};

const base = join(tmpdir(), `portcullis-staging-writes-${process.pid}`);
const results = Object.fromEntries(Object.keys(ways).map((name) => [name, { wallMs: [], cpuMs: [] }]));
const names = Object.keys(ways);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const dir = `${base}-${name}`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const cpu = process.cpuUsage();
    const started = performance.now();
    await ways[name](dir);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    results[name].wallMs.push(wall);
    results[name].cpuMs.push((used.user + used.system) / 1000);
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const figure = (values) => ({ median: Math.round(median(values)), min: Math.round(Math.min(...values)), max: Math.round(Math.max(...values)) });
const summary = Object.fromEntries(Object.entries(results).map(([name, { wallMs, cpuMs }]) => [name, { wallMs: figure(wallMs), processCpuMs: figure(cpuMs) }]));
console.log(`staging-writes: ${FILES} files, ${(contents.reduce((sum, c) => sum + c.length, 0) / 1e6).toFixed(1)} MB, ${ROUNDS} alternated rounds; median (min..max)`);
for (const [name, { wallMs, processCpuMs }] of Object.entries(summary)) {
  console.log(`  ${name.padEnd(10)} wall ${String(wallMs.median).padStart(5)} ms (${wallMs.min}..${wallMs.max})   process CPU ${String(processCpuMs.median).padStart(5)} ms (${processCpuMs.min}..${processCpuMs.max})`);
}
console.log(JSON.stringify({ benchmark: 'staging-writes', files: FILES, rounds: ROUNDS, ...summary }));
