// My bundle handles, and uploading a new bundle (a zip with AGENT.md). A refused archive shows the
// guard that refused it (the problem's detail).
import { useState } from 'preact/hooks';
import type { BundleHandle } from '../api/types';
import { Empty, ProblemNotice } from '../components/common';
import { useApi } from '../lib/api-context';
import { when } from '../lib/format';
import { href, navigate, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';

export function BundlesPage() {
  useTitle('Bundles');
  const api = useApi();
  const handles = useAsync((signal) => api.get<{ handles: BundleHandle[] }>('/api/bundles?limit=100', signal), [api]);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const upload = async (): Promise<void> => {
    if (file === null) return;
    setBusy(true);
    setError(undefined);
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const registered = await api.upload<{ handle: string }>('/api/bundles', form);
      navigate('bundles', registered.handle);
    } catch (caught) {
      setError(caught);
      handles.reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>Bundles</h1>
      <form
        class="upload"
        onSubmit={(event) => {
          event.preventDefault();
          void upload();
        }}
      >
        <label for="bundle-file">Bundle archive (.zip with AGENT.md at its root)</label>
        <input id="bundle-file" type="file" accept=".zip,application/zip" onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
        <button type="submit" class="primary" disabled={file === null || busy}>
          {busy ? 'Uploading…' : 'Upload'}
        </button>
      </form>
      <ProblemNotice error={error} context="The bundle was refused" />
      <h2>My handles</h2>
      <ProblemNotice error={handles.error} />
      {handles.value?.handles.length === 0 ? <Empty>No live handles. Upload a bundle to get one.</Empty> : null}
      {handles.value === undefined || handles.value.handles.length === 0 ? null : (
        <table>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Handle</th>
              <th scope="col">Uploaded</th>
              <th scope="col">Expires (at the earliest)</th>
            </tr>
          </thead>
          <tbody>
            {handles.value.handles.map((handle) => (
              <tr key={handle.handle}>
                <td>
                  <a href={href('bundles', handle.handle)}>{handle.agentId}</a>
                </td>
                <td>
                  <code>{handle.handle}</code>
                </td>
                <td>{when(handle.createdAt)}</td>
                <td>{when(handle.expiresAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
