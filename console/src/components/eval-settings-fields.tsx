// The fields of an eval run's settings — datasets (the host's and, when given, my own at their latest
// or a pinned version), repeats, parallelism, fail-rate threshold, tags — as the evals page starts a
// run with them and a schedule's eval target stores them.
import type { OwnDatasetSummary } from '../api/types';
import type { EvalSettings } from '../lib/eval-settings';
import { chooseOwnDataset, ownDatasetRef, parseOwnDatasetRef } from '../lib/own-dataset-ref';
import { Empty } from './common';

export function EvalSettingsFields({
  datasets,
  ownDatasets,
  value,
  onChange,
}: {
  datasets: readonly string[] | undefined;
  /** Mine (DESIGN §19), or undefined while unknown or not offered. */
  ownDatasets?: readonly OwnDatasetSummary[] | undefined;
  value: EvalSettings;
  onChange: (next: EvalSettings) => void;
}) {
  const own = ownDatasets ?? [];
  const isListedOwn = (ref: string): boolean => own.some((dataset) => dataset.name === parseOwnDatasetRef(ref)?.name);
  // A chosen dataset stays listed even when the service no longer offers it (a prefilled schedule).
  const names = [...new Set([...(datasets ?? []), ...[...value.datasets].filter((ref) => !isListedOwn(ref))])];
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
      {own.length === 0 ? null : <OwnDatasetChoices own={own} value={value} onChange={onChange} />}
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

/** Each of my datasets: chosen or not, and which version (the latest when the run starts, or one pinned). */
function OwnDatasetChoices({ own, value, onChange }: { own: readonly OwnDatasetSummary[]; value: EvalSettings; onChange: (next: EvalSettings) => void }) {
  const choose = (name: string, choice: number | null | 'off'): void => onChange({ ...value, datasets: chooseOwnDataset(value.datasets, name, choice) });
  return (
    <fieldset>
      <legend>My datasets</legend>
      {own.map((dataset) => {
        const ref = ownDatasetRef(dataset.name, null);
        const chosen = [...value.datasets].map(parseOwnDatasetRef).find((parsed) => parsed?.name === dataset.name) ?? null;
        const latest = Array.from({ length: dataset.version }, (_, i) => dataset.version - i);
        return (
          <div key={dataset.name} class="own-dataset-choice">
            <label class="check">
              <input type="checkbox" name="dataset" value={ref} checked={chosen !== null} onChange={(event) => choose(dataset.name, event.currentTarget.checked ? (chosen?.version ?? null) : 'off')} /> {ref}
            </label>
            <select
              aria-label={`Version of ${ref}`}
              disabled={chosen === null}
              value={chosen === null || chosen.version === null ? '' : String(chosen.version)}
              onChange={(event) => choose(dataset.name, event.currentTarget.value === '' ? null : Number(event.currentTarget.value))}
            >
              <option value="">latest (now v{dataset.version})</option>
              {latest.map((version) => (
                <option key={version} value={String(version)}>
                  v{version} pinned
                </option>
              ))}
            </select>
          </div>
        );
      })}
    </fieldset>
  );
}
