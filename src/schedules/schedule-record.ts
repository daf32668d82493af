// What a schedule is in the storage (DESIGN.md §14): its cron, zone and target, whether it is on, when
// it fires next, and the identity claims it runs under — the owner's principal as it was when the
// schedule was created or last changed (never a token). A fire starts its run as that principal, so the
// envelope, roles and caps are resolved then, exactly as for a request.
import type { Principal } from '../platform/auth/index.js';
import { isoInstant } from '../platform/clock/index.js';
import type { ScheduleResource, ScheduleTarget } from './schemas.js';

/** The identity claims a fire runs under (the owner id is the record's key). */
export interface RunAs {
  readonly ownerClaimValue: string;
  readonly subjectId: string | null;
  readonly roles: readonly string[];
  readonly displayName: string | null;
  readonly anonymous: boolean;
}

export interface ScheduleData {
  readonly id: string;
  readonly name: string;
  readonly cron: string;
  readonly timeZone: string;
  readonly target: ScheduleTarget;
  readonly enabled: boolean;
  /** The next fire (epoch ms); null while disabled or when the cron never fires again. */
  readonly nextRunAt: number | null;
  readonly createdAt: number;
  readonly runAs: RunAs;
}

export const targetKind = (target: ScheduleTarget): 'workflow' | 'eval' => ('workflow' in target ? 'workflow' : 'eval');

export function runAsOf(principal: Principal): RunAs {
  return {
    ownerClaimValue: principal.ownerClaimValue,
    subjectId: principal.subjectId,
    roles: [...principal.roles],
    displayName: principal.displayName ?? null,
    anonymous: principal.anonymous,
  };
}

/** The principal a fire acts as: the owner with the claims stored at create or last PATCH. */
export function principalFor(ownerId: string, runAs: RunAs): Principal {
  return { ownerId, ...runAs };
}

export function toScheduleResource(schedule: ScheduleData): ScheduleResource {
  const { id, name, cron, timeZone, target, enabled, nextRunAt, createdAt } = schedule;
  return { id, name, cron, timeZone, target, enabled, nextRunAt: nextRunAt === null ? null : isoInstant(nextRunAt), createdAt: isoInstant(createdAt) };
}
