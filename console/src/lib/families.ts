// Which families the host serves (`families` of GET /api/capabilities, decision 2703), read once per
// sign-in by the shell and given to every page: a family that is off leaves the navigation, and its
// pages say so instead of showing the 403 their calls would get. Until the answer is in (or when the
// call failed) every family counts as on, so no page waits on it: the service decides either way.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { HostFamilies } from '../api/types';

export type Family = keyof HostFamilies;

export const ALL_FAMILIES_ON: HostFamilies = { bundles: true, workflows: true, evals: true, schedules: true };

export const FamiliesContext = createContext<HostFamilies>(ALL_FAMILIES_ON);

export function useFamilies(): HostFamilies {
  return useContext(FamiliesContext);
}

/**
 * The family behind a console section, when the whole section is that family's. Tools is not: its
 * catalog, "why may I?" and spend panel are served whatever the switches say, and its invoke form is
 * always offered for a directly invocable tool (whether the host serves direct invocation is not
 * reported: a refused invocation shows the service's 403, as SPEC.md has it). Approvals and webhooks
 * have no switch.
 */
export function familyOfSection(section: string | undefined): Family | null {
  switch (section) {
    case 'workflows':
    case 'bundles':
    case 'evals':
    case 'schedules':
      return section;
    default:
      return null;
  }
}

/** What the family is called in a sentence, and the key that turns it on. */
export const FAMILY_TEXT: Readonly<Record<Family, { readonly name: string; readonly key: string }>> = {
  bundles: { name: 'Bundles', key: 'AppConfig:AI:BundleExecution:Enabled' },
  workflows: { name: 'Workflows', key: '' },
  evals: { name: 'Evals', key: 'AppConfig:AI:Evaluation:Enabled' },
  schedules: { name: 'Schedules', key: 'AppConfig:Schedules:Enabled' },
};
