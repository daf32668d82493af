// Writing a workflow: the definition as JSON, checked against POST /api/workflows/validate as it is
// typed (debounced; nothing is stored), every diagnostic shown on its step in the graph and in the
// list, then "Save" submits it.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import type { Diagnostic } from '../api/types';
import { ProblemNotice } from '../components/common';
import { DagView } from '../components/dag-view';
import { useApi } from '../lib/api-context';
import { draftShape, groupDiagnostics } from '../lib/diagnostics';
import { navigate, useTitle } from '../lib/router';

const VALIDATE_DELAY_MS = 500;

export const EXAMPLE_DEFINITION = JSON.stringify(
  {
    name: 'summary-with-review',
    steps: [
      { name: 'draft', type: 'LlmCall', configuration: { type: 'LlmCall', prompt: 'Summarise {{ input.topic }} in one sentence.' } },
      { name: 'review', type: 'HumanGate', configuration: { type: 'HumanGate', message: 'Publish this summary?' } },
      {
        name: 'measure',
        type: 'ToolUse',
        configuration: { type: 'ToolUse', tool: 'text', operation: 'count_tokens', parameters: { text: '{{ steps.draft.output }}' } },
      },
    ],
    edges: [
      { from: 'draft', to: 'review' },
      { from: 'review', to: 'measure' },
    ],
    configuration: { input: { topic: 'the release notes' } },
  },
  null,
  2,
);

type Check =
  | { state: 'idle' | 'checking' }
  | { state: 'unparsable'; message: string }
  | { state: 'checked'; valid: boolean; diagnostics: readonly Diagnostic[] }
  | { state: 'failed'; error: unknown };

function statusText(check: Check): string {
  switch (check.state) {
    case 'idle':
    case 'checking':
      return 'Checking…';
    case 'unparsable':
      return `Not JSON yet: ${check.message}`;
    case 'failed':
      return 'Could not check the definition.';
    case 'checked':
      return check.valid ? 'Valid: ready to save.' : `${check.diagnostics.length} problem${check.diagnostics.length === 1 ? '' : 's'} found.`;
  }
}

export function WorkflowEditorPage() {
  useTitle('New workflow');
  const api = useApi();
  const [text, setText] = useState(EXAMPLE_DEFINITION);
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [saveError, setSaveError] = useState<unknown>(undefined);
  const parsed = useMemo(() => {
    try {
      return { ok: true as const, value: JSON.parse(text) as unknown };
    } catch (error) {
      return { ok: false as const, message: (error as Error).message };
    }
  }, [text]);

  useEffect(() => {
    if (!parsed.ok) {
      setCheck({ state: 'unparsable', message: parsed.message });
      return undefined;
    }
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      setCheck({ state: 'checking' });
      api
        .send<{ valid: boolean; diagnostics: Diagnostic[] }>('POST', '/api/workflows/validate', parsed.value, controller.signal)
        .then((result) => setCheck({ state: 'checked', ...result }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          // A definition the validator cannot even read is a 400 carrying the same diagnostics.
          if (error instanceof ApiError && error.problem.diagnostics !== undefined) {
            setCheck({ state: 'checked', valid: false, diagnostics: error.problem.diagnostics });
          } else setCheck({ state: 'failed', error });
        });
    }, VALIDATE_DELAY_MS);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [api, parsed]);

  const shape = draftShape(parsed.ok ? parsed.value : undefined);
  const diagnostics = check.state === 'checked' ? check.diagnostics : [];
  const groups = groupDiagnostics(diagnostics, parsed.ok ? ((parsed.value as { edges?: { from?: unknown; to?: unknown }[] }).edges ?? []) : []);

  const save = async (): Promise<void> => {
    if (!parsed.ok) return;
    setSaveError(undefined);
    try {
      const saved = await api.send<{ id: string }>('POST', '/api/workflows', parsed.value);
      navigate('workflows', saved.id);
    } catch (error) {
      setSaveError(error);
    }
  };

  return (
    <section>
      <h1>New workflow</h1>
      <div class="split">
        <div class="pane">
          <label for="definition">Definition (JSON)</label>
          <textarea
            id="definition"
            class="code"
            rows={28}
            spellcheck={false}
            value={text}
            aria-describedby="validation-status"
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <p id="validation-status" class={`validation validation-${check.state === 'checked' ? (check.valid ? 'valid' : 'invalid') : check.state}`} aria-live="polite">
            {statusText(check)}
          </p>
          {check.state === 'failed' ? <ProblemNotice error={check.error} /> : null}
          <button type="button" class="primary" disabled={!(check.state === 'checked' && check.valid)} onClick={() => void save()}>
            Save workflow
          </button>
          <ProblemNotice error={saveError} context="The workflow was not saved" />
        </div>
        <div class="pane wide">
          <h2>Graph</h2>
          <DagView
            label="Graph of the workflow being written"
            steps={shape.steps.map((step) => ({ ...step, problems: groups.byStep.get(step.name)?.length ?? 0 }))}
            edges={shape.edges}
          />
          <h2>Diagnostics</h2>
          {diagnostics.length === 0 ? <p class="empty">None.</p> : null}
          <ul class="diagnostics" aria-label="Diagnostics">
            {[...groups.byStep].map(([step, list]) => (
              <li key={`step:${step}`} data-step={step}>
                <strong>Step “{step}”</strong>
                <ul>
                  {list.map((d, i) => (
                    <li key={i}>
                      <code>{d.code}</code> {d.message}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
            {groups.byEdge.map(({ label, diagnostic }, i) => (
              <li key={`edge:${i}`}>
                <strong>{label}</strong> <code>{diagnostic.code}</code> {diagnostic.message}
              </li>
            ))}
            {groups.general.map((d, i) => (
              <li key={`general:${i}`}>
                <strong>Workflow</strong> <code>{d.code}</code> {d.message}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
