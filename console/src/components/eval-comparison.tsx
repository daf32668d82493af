// A finished eval run compared with its baseline run (DESIGN §19): the cases whose outcome fell
// (regressions, marked), those whose outcome rose, and how many kept theirs. Cases in only one of the
// two runs are not compared, so they are in none of these.
import type { CaseChange, EvalComparison } from '../api/types';
import { href } from '../lib/router';
import { Badge, Empty } from './common';

export function EvalComparisonPanel({ comparison }: { comparison: EvalComparison }) {
  const { baseline, regressions, improvements, unchanged } = comparison;
  return (
    <section class="comparison" aria-labelledby="comparison-heading">
      <h2 id="comparison-heading">
        Compared with <a href={href('evals', baseline)}>{baseline}</a>
      </h2>
      <p class="meta">
        {count(regressions.length, 'regression')}, {count(improvements.length, 'improvement')}, {count(unchanged, 'case')} unchanged.
      </p>
      {regressions.length === 0 ? <Empty>No case did worse than in the baseline.</Empty> : <ChangeTable caption="Regressions" changes={regressions} regression />}
      {improvements.length === 0 ? null : <ChangeTable caption="Improvements" changes={improvements} regression={false} />}
    </section>
  );
}

function ChangeTable({ caption, changes, regression }: { caption: string; changes: readonly CaseChange[]; regression: boolean }) {
  return (
    <table class={regression ? 'changes regressions' : 'changes'}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Dataset</th>
          <th scope="col">Case</th>
          <th scope="col">Was → now</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <tr key={`${change.dataset}\n${change.caseId}`} class={regression ? 'regression' : 'improvement'}>
            <td>{change.dataset}</td>
            <td>{change.caseId}</td>
            <td>
              <Badge status={change.was} /> → <Badge status={change.now} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
