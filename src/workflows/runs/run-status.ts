// Run and step states (SPEC.md "Workflow run", DESIGN §6): closed unions.
export const runStatuses = ['Queued', 'Running', 'Blocked', 'Succeeded', 'Failed', 'Cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];

export const stepStatuses = ['Pending', 'Running', 'Succeeded', 'Failed', 'Skipped', 'Waiting'] as const;
export type StepStatus = (typeof stepStatuses)[number];

export type FinalStatus = Extract<RunStatus, 'Succeeded' | 'Failed' | 'Cancelled'>;

export function isFinal(status: RunStatus): status is FinalStatus {
  return status === 'Succeeded' || status === 'Failed' || status === 'Cancelled';
}

/** Queued, Running and Blocked runs are live: they hold their workflow. */
export function isLive(status: RunStatus): boolean {
  return !isFinal(status);
}
