// SPEC.md rule 3: evaluation enabled with no DatasetRoots refuses start-up.
import type { ConfigRule } from './config-rule.js';

const EVALUATION = 'AppConfig:AI:Evaluation';

export const evaluationRootsRule: ConfigRule = {
  reads: [`${EVALUATION}:Enabled`, `${EVALUATION}:DatasetRoots`],
  check({ evaluation }, report) {
    if (evaluation.enabled && evaluation.datasetRoots.length === 0) {
      report.problem(`${EVALUATION}:DatasetRoots: must list at least one directory when ${EVALUATION}:Enabled is true`);
    }
  },
};
