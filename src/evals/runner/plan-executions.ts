// Expands datasets into case executions: every case that passes the tag filter, once per repeat, in
// dataset, case, repeat order. The count is what MaxCaseExecutionsPerRun is checked against.
import type { Dataset } from '../datasets/dataset.js';
import type { CaseExecution } from './case-execution.js';

export function planExecutions(datasets: readonly Dataset[], repeats: number, tagFilter: readonly string[] | null): CaseExecution[] {
  const executions: CaseExecution[] = [];
  for (const dataset of datasets) {
    for (const evalCase of dataset.cases) {
      if (tagFilter !== null && !evalCase.tags.some((tag) => tagFilter.includes(tag))) continue;
      for (let repeat = 1; repeat <= repeats; repeat += 1) executions.push({ dataset, evalCase, repeat });
    }
  }
  return executions;
}
