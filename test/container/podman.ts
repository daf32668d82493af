// podman for the container tests: whether this machine can build and run the image at all (else the
// reason the tests are skipped), the flags a sandboxed host needs, and one command runner. Docker's
// engine is not used: only its client is ever installed where these tests run.
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runProcess } from '../helpers/cli-process.js';

export const ENABLE_CONTAINER_TESTS = 'run as root with podman and debootstrap installed (apt-get install podman debootstrap)';

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/** cgroup v1 with a cgroup2 hierarchy beside it: crun refuses to create containers there, runc does not. */
function hybridCgroups(): boolean {
  try {
    return readFileSync('/proc/self/mounts', 'utf8').split('\n').some((line) => line.split(' ')[1] === '/sys/fs/cgroup/unified');
  } catch {
    return false;
  }
}

/** Why the container tests cannot run here, or null when they can. */
export function containerSkipReason(): string | null {
  if (process.platform !== 'linux') return `they need Linux; ${ENABLE_CONTAINER_TESTS}`;
  if (process.getuid?.() !== 0) return `debootstrap and rootful podman need root; ${ENABLE_CONTAINER_TESTS}`;
  const missing = ['podman', 'debootstrap'].filter((command) => !onPath(command));
  if (missing.length > 0) return `${missing.join(' and ')} not found; ${ENABLE_CONTAINER_TESTS}`;
  if (hybridCgroups() && !onPath('runc')) return 'this host mixes cgroup v1 and v2, which crun refuses; apt-get install runc';
  return null;
}

/** A hard limit of this process from /proc/self/limits, or null when unlimited or unreadable. */
function hardLimit(name: string): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((row) => row.startsWith(name));
    const value = line?.slice(name.length).trim().split(/\s+/)[1];
    return value === undefined || !/^\d+$/.test(value) ? null : Number(value);
  } catch {
    return null;
  }
}

/**
 * Flags for `podman build` and `podman run`. Rootful podman asks for 1048576 open files and 4194304
 * processes per container; a sandbox that may not raise its own limits refuses that (crun/runc:
 * "setrlimit … Operation not permitted"), so the container gets this process's own limits, processes
 * capped at pid_max (a sandbox seen here refuses any RLIMIT_NPROC above it). On hybrid cgroups, runc.
 */
export function podmanFlags(): string[] {
  const flags: string[] = [];
  const files = hardLimit('Max open files');
  if (files !== null) flags.push('--ulimit', `nofile=${files}:${files}`);
  let processes = hardLimit('Max processes');
  try {
    const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim());
    if (Number.isInteger(pidMax) && pidMax > 0) processes = Math.min(processes ?? pidMax, pidMax);
  } catch {
    // No pid_max to respect.
  }
  if (processes !== null) flags.push('--ulimit', `nproc=${processes}:${processes}`);
  if (hybridCgroups()) flags.push('--runtime', 'runc');
  return flags;
}

/** `podman …` that must succeed: its stdout, trimmed; a failure throws with the end of its stderr. */
export async function podman(args: readonly string[], cwd: string = process.cwd()): Promise<string> {
  const result = await runProcess('podman', [...args], { cwd, env: process.env });
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.code}:\n${result.stderr.trim().split('\n').slice(-15).join('\n')}`);
  return result.stdout.trim();
}
