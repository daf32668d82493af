// Which families this host serves, read from its switches (decision 2703). The same answer for every
// caller: whether a caller may use a family is its roles' and envelope's business, explained beside it.
// Direct tool invocation's switch is deliberately not reported: SPEC.md keeps a refused invocation's 403
// the same whether the role is missing, governance refused or the surface is off.
import type { AppConfig } from '../platform/config/index.js';
import type { HostFamilies } from './schemas.js';

type FamilySwitches = Pick<AppConfig, 'bundleExecution' | 'evaluation' | 'schedules'>;

export function hostFamilies(config: FamilySwitches): HostFamilies {
  return {
    bundles: config.bundleExecution.enabled,
    // Workflows have no switch; the field is there so a console needs no change the day they get one.
    workflows: true,
    evals: config.evaluation.enabled,
    schedules: config.schedules.enabled,
  };
}
