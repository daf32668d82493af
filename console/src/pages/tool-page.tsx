// One tool: its description and risk, and an invoke form generated from each operation's parameter
// JSON Schema. The answer (output or the tool's error) is shown as text.
import { useState } from 'preact/hooks';
import type { ToolDescription, ToolInvocation } from '../api/types';
import { Badge, Facts, ProblemNotice, Verbatim } from '../components/common';
import { SchemaForm } from '../components/schema-form';
import { useApi } from '../lib/api-context';
import { duration, prettyJson } from '../lib/format';
import { href, useTitle } from '../lib/router';
import { fieldsOf, parametersOf, type FieldValues } from '../lib/schema-fields';
import { useAsync } from '../lib/use-async';

export function ToolPage({ name }: { name: string }) {
  useTitle(`Tool ${name}`);
  const api = useApi();
  const path = `/api/tools/${encodeURIComponent(name)}`;
  const tool = useAsync((signal) => api.get<ToolDescription>(path, signal), [api, path]);
  const [operation, setOperation] = useState<string | null>(null);
  const [values, setValues] = useState<FieldValues>({});
  const [timeout, setTimeoutSeconds] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [result, setResult] = useState<ToolInvocation | null>(null);
  const [busy, setBusy] = useState(false);

  const value = tool.value;
  const chosen = operation ?? value?.operations[0] ?? null;
  const fields = value === undefined || chosen === null ? [] : fieldsOf(value.parameters[chosen]);

  const invoke = async (): Promise<void> => {
    if (chosen === null) return;
    setProblem(null);
    setError(undefined);
    setResult(null);
    const read = parametersOf(fields, values);
    if (!read.ok) {
      setProblem(`${read.field} ${read.message}.`);
      return;
    }
    setBusy(true);
    try {
      setResult(
        await api.send<ToolInvocation>('POST', `${path}/invoke`, {
          operation: chosen,
          parameters: read.parameters,
          ...(timeout.trim() === '' ? {} : { timeoutSeconds: Number(timeout) }),
        }),
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>
        Tool <code>{name}</code>
      </h1>
      <p class="meta">
        <a href={href("tools")}>All tools, and why I may use them</a>
      </p>
      <ProblemNotice error={tool.error} />
      {value === undefined ? null : (
        <>
          <p>{value.description}</p>
          <Facts
            items={[
              ['Risk', <Badge status={`risk-${value.riskTier}`} label={value.riskTier} />],
              ['Read-only', value.isReadOnly ? 'yes' : 'no'],
              ['Concurrency-safe', value.isConcurrencySafe ? 'yes' : 'no'],
              ['Invocable here', value.isDirectlyInvocable ? 'yes' : 'no (only inside runs)'],
            ]}
          />
          {!value.isDirectlyInvocable ? null : (
            <form
              class="invoke"
              onSubmit={(event) => {
                event.preventDefault();
                void invoke();
              }}
            >
              <h2>Invoke</h2>
              <label for="operation">Operation</label>
              <select
                id="operation"
                value={chosen ?? ''}
                onChange={(event) => {
                  setOperation(event.currentTarget.value);
                  setValues({});
                  setResult(null);
                }}
              >
                {value.operations.map((op) => (
                  <option key={op} value={op}>
                    {op}
                  </option>
                ))}
              </select>
              <fieldset>
                <legend>Parameters of {chosen}</legend>
                <SchemaForm key={chosen} idPrefix={`param-${chosen}`} fields={fields} values={values} onChange={setValues} />
              </fieldset>
              <label for="timeout">Deadline in seconds (optional)</label>
              <input id="timeout" type="number" min={1} max={300} value={timeout} onInput={(event) => setTimeoutSeconds(event.currentTarget.value)} />
              <div class="actions">
                <button type="submit" class="primary" disabled={busy}>
                  {busy ? 'Invoking…' : 'Invoke'}
                </button>
              </div>
              {problem === null ? null : (
                <p class="field-error" role="alert">
                  {problem}
                </p>
              )}
            </form>
          )}
          <ProblemNotice error={error} context="The invocation was refused" />
          {result === null ? null : (
            <div class="result" role="status">
              <h2>
                Result <Badge status={result.succeeded ? 'Succeeded' : 'Failed'} />
              </h2>
              <p class="meta">
                {duration(result.durationMs)}
                {result.outputTruncated ? ' · output cut at the host’s ceiling' : ''}
              </p>
              <Verbatim text={result.succeeded ? prettyJson(result.output ?? '') : (result.error ?? '')} label="Tool answer" />
            </div>
          )}
        </>
      )}
    </section>
  );
}
