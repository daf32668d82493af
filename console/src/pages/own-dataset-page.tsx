// One of my own eval datasets (DESIGN §19): any of its versions, 1 to the latest, with its subject and
// cases as they were PUT; a link that starts a run of the version shown, and delete (asked twice).
import { useState } from 'preact/hooks';
import type { OwnDataset } from '../api/types';
import { ConfirmButton } from '../components/confirm-button';
import { ActionOutcome, Facts, ProblemNotice, Verbatim } from '../components/common';
import { useApi } from '../lib/api-context';
import { assertionText, caseInput, caseName } from '../lib/dataset-case-text';
import { when } from '../lib/format';
import { ownDatasetRef } from '../lib/own-dataset-ref';
import { href, hrefWithQuery, navigate, useTitle } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useAsync } from '../lib/use-async';

export function OwnDatasetPage({ name }: { name: string }) {
  const ref = ownDatasetRef(name, null);
  useTitle(`Dataset ${ref}`);
  const api = useApi();
  const path = `/api/evals/datasets/mine/${encodeURIComponent(name)}`;
  const latest = useAsync((signal) => api.get<OwnDataset>(path, signal), [api, path]);
  // null: the latest, as read above.
  const [chosen, setChosen] = useState<number | null>(null);
  const pinned = useAsync(async (signal) => (chosen === null ? null : api.get<OwnDataset>(`${path}?version=${chosen}`, signal)), [api, path, chosen]);
  const action = useAction();
  const remove = (): Promise<void> =>
    action.run(async () => {
      await api.send('DELETE', path);
      navigate('evals');
    });

  const newest = latest.value?.version;
  const shown = chosen === null ? latest.value : pinned.value?.version === chosen ? pinned.value : undefined;
  const versions = newest === undefined ? [] : Array.from({ length: newest }, (_, i) => newest - i);
  return (
    <section>
      <h1>Dataset {ref}</h1>
      <p class="meta">
        <a href={href('evals')}>all evals</a>
      </p>
      <ProblemNotice error={latest.error} />
      {newest === undefined ? null : (
        <>
          <div class="version-picker">
            <label for="dataset-version">Version</label>
            <select id="dataset-version" value={String(chosen ?? newest)} onChange={(event) => setChosen(Number(event.currentTarget.value) === newest ? null : Number(event.currentTarget.value))}>
              {versions.map((version) => (
                <option key={version} value={String(version)}>
                  {version === newest ? `${version} (latest)` : String(version)}
                </option>
              ))}
            </select>
          </div>
          <ProblemNotice error={chosen === null ? undefined : pinned.error} context={`Version ${chosen} could not be read`} />
          {shown === undefined ? <p class="meta">Loading…</p> : <DatasetVersion dataset={shown} />}
          <div class="actions">
            <a class="button primary" href={hrefWithQuery(['evals'], { dataset: ownDatasetRef(name, chosen) })}>
              {chosen === null ? 'Run the latest version' : `Run version ${chosen}`}
            </a>
            <ConfirmButton
              label="Delete dataset"
              question={`Delete ${ref} with all its versions? Runs that named it keep their reports; new runs cannot name it.`}
              confirmLabel="Yes, delete it"
              onConfirm={remove}
            />
          </div>
          <ActionOutcome action={action} />
        </>
      )}
    </section>
  );
}

function DatasetVersion({ dataset }: { dataset: OwnDataset }) {
  const subject = dataset.subject;
  return (
    <>
      <Facts
        items={[
          ['Version', dataset.version],
          ['Written', when(dataset.createdAt)],
          ['Description', dataset.description ?? '—'],
          ['Subject', subjectText(dataset.subject)],
          ['Case deadline', (dataset.timeoutSeconds ?? null) === null ? '120 s (default)' : `${dataset.timeoutSeconds} s`],
        ]}
      />
      {typeof subject?.system === 'string' ? <Verbatim text={subject.system} label="Subject system prompt" /> : null}
      <h2>Cases ({dataset.cases.length})</h2>
      <table class="dataset-cases">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Asks</th>
            <th scope="col">Tags</th>
            <th scope="col">Asserts</th>
          </tr>
        </thead>
        <tbody>
          {dataset.cases.map((entry, index) => (
            <tr key={index}>
              <th scope="row">{caseName(entry, index)}</th>
              <td class="asks">{caseInput(entry)}</td>
              <td>{entry.tags?.join(', ') || '—'}</td>
              <td>
                {(entry.assert ?? []).length === 0 ? (
                  '—'
                ) : (
                  <ul class="plain-list">
                    {(entry.assert ?? []).map((assertion, i) => (
                      <li key={i}>
                        <code>{assertionText(assertion)}</code>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Who answers the cases unless a run names a bundle: a host agent, a system prompt (shown below), or the default. */
function subjectText(subject: OwnDataset['subject']): string {
  const who = typeof subject?.agent === 'string' ? `agent ${subject.agent}` : typeof subject?.system === 'string' ? 'the system prompt below' : 'the default system prompt';
  const tools = subject?.tools ?? [];
  return tools.length === 0 ? who : `${who}, asking for ${tools.join(', ')}`;
}
