// The fields of an eval run's settings — datasets, repeats, parallelism, fail-rate threshold, tags — as
// the evals page starts a run with them and a schedule's eval target stores them.
import type { EvalSettings } from '../lib/eval-settings';
import { Empty } from './common';

export function EvalSettingsFields({ datasets, value, onChange }: { datasets: readonly string[] | undefined; value: EvalSettings; onChange: (next: EvalSettings) => void }) {
  // A chosen dataset stays listed even when the service no longer offers it (a prefilled schedule).
  const names = [...new Set([...(datasets ?? []), ...value.datasets])];
  const toggle = (name: string, on: boolean): void => {
    const next = new Set(value.datasets);
    if (on) next.add(name);
    else next.delete(name);
    onChange({ ...value, datasets: next });
  };
  const field = (key: 'repeats' | 'parallelism' | 'threshold' | 'tags') => (event: { currentTarget: HTMLInputElement }) => onChange({ ...value, [key]: event.currentTarget.value });
  return (
    <>
      <fieldset>
        <legend>Datasets</legend>
        {datasets?.length === 0 ? <Empty>No datasets: the service has no Evaluation:DatasetRoots.</Empty> : null}
        {names.map((name) => (
          <label key={name} class="check">
            <input type="checkbox" name="dataset" value={name} checked={value.datasets.has(name)} onChange={(event) => toggle(name, event.currentTarget.checked)} /> {name}
          </label>
        ))}
      </fieldset>
      <div class="fields">
        <label>
          Repeats <input type="number" min={1} value={value.repeats} onInput={field('repeats')} />
        </label>
        <label>
          Parallelism <input type="number" min={1} value={value.parallelism} onInput={field('parallelism')} />
        </label>
        <label>
          Fail-rate threshold <input type="number" min={0} max={1} step={0.05} value={value.threshold} onInput={field('threshold')} />
        </label>
        <label>
          Tags (any of) <input type="text" value={value.tags} onInput={field('tags')} />
        </label>
      </div>
    </>
  );
}
