// The console's shell: header with navigation and who I am, one page per route, the sign-in page
// whenever a token is needed and missing. Sections of a family the host turned off are left out of
// the navigation, and their pages say it is off (lib/families).
import { useMemo } from 'preact/hooks';
import { createApi, type Api } from './api/client';
import type { Capabilities, HostFamilies } from './api/types';
import { SignInPage } from './auth/sign-in-page';
import { currentToken, isSignedIn, signOut, useSession, type Session } from './auth/session';
import { FamilyOffPage } from './components/family-off';
import { ApiContext } from './lib/api-context';
import { ALL_FAMILIES_ON, FamiliesContext, familyOfSection } from './lib/families';
import { href, useRoute } from './lib/router';
import { useAsync } from './lib/use-async';
import { ApprovalsPage } from './pages/approvals-page';
import { BundlePage } from './pages/bundle-page';
import { BundlesPage } from './pages/bundles-page';
import { EvalRunPage } from './pages/eval-run-page';
import { EvalsPage } from './pages/evals-page';
import { NewSchedulePage } from './pages/new-schedule-page';
import { OwnDatasetPage } from './pages/own-dataset-page';
import { SchedulePage } from './pages/schedule-page';
import { SchedulesPage } from './pages/schedules-page';
import { ToolPage } from './pages/tool-page';
import { ToolsPage } from './pages/tools-page';
import { WebhookPage } from './pages/webhook-page';
import { WebhooksPage } from './pages/webhooks-page';
import { WorkflowEditorPage } from './pages/workflow-editor-page';
import { WorkflowPage } from './pages/workflow-page';
import { WorkflowRunPage } from './pages/workflow-run-page';
import { WorkflowsPage } from './pages/workflows-page';

const SECTIONS = [
  ['approvals', 'Approvals'],
  ['workflows', 'Workflows'],
  ['bundles', 'Bundles'],
  ['evals', 'Evals'],
  ['schedules', 'Schedules'],
  ['webhooks', 'Webhooks'],
  ['tools', 'Tools'],
] as const;

export function App() {
  const session = useSession();
  const route = useRoute();
  const api = useMemo(
    () => createApi({ token: currentToken, onUnauthorized: () => void signOut('The service did not accept your sign-in (it may have expired). Sign in again.') }),
    [],
  );
  if (!isSignedIn(session)) return <SignInPage session={session} />;
  return <Shell api={api} session={session} route={route} />;
}

function Shell({ api, session, route }: { api: Api; session: Session; route: string[] }) {
  // Asked once per sign-in (the shell mounts when a session starts); until answered, or if refused, every family counts as on.
  const capabilities = useAsync((signal) => api.get<Capabilities>('/api/capabilities', signal), [api]);
  const families: HostFamilies = capabilities.value?.families ?? ALL_FAMILIES_ON;
  const isOff = (section: string | undefined): boolean => {
    const family = familyOfSection(section);
    return family !== null && !families[family];
  };
  const offFamily = isOff(route[0]) ? familyOfSection(route[0]) : null;
  return (
    <ApiContext.Provider value={api}>
      <FamiliesContext.Provider value={families}>
        <a class="skip-link" href="#main" onClick={(event) => { event.preventDefault(); document.getElementById('main')?.focus(); }}>
          Skip to content
        </a>
        <header class="top">
          <span class="brand">Portcullis</span>
          <nav aria-label="Sections">
            <ul>
              {SECTIONS.filter(([id]) => !isOff(id)).map(([id, title]) => (
                <li key={id}>
                  <a href={href(id)} aria-current={route[0] === id ? 'page' : undefined}>
                    {title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <WhoAmI session={session} />
        </header>
        <main id="main" tabIndex={-1}>
          {offFamily === null ? <Page route={route} /> : <FamilyOffPage family={offFamily} />}
        </main>
      </FamiliesContext.Provider>
    </ApiContext.Provider>
  );
}

function WhoAmI({ session }: { session: Session }) {
  if (session.auth.mode === 'anonymous') return <p class="who">Anonymous (Development mode)</p>;
  const subject = session.claims?.subject ?? 'signed in';
  return (
    <div class="who">
      <span>
        {subject}
        {session.via === 'pasted' ? ' (pasted token)' : ''}
      </span>
      <button type="button" class="link" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}

function Page({ route }: { route: string[] }) {
  const [section, id, sub, subId] = route;
  switch (section) {
    case 'workflows':
      if (id === 'new') return <WorkflowEditorPage />;
      if (id !== undefined && sub === 'runs' && subId !== undefined) return <WorkflowRunPage workflowId={id} jobId={subId} />;
      if (id !== undefined) return <WorkflowPage workflowId={id} />;
      return <WorkflowsPage />;
    case 'bundles':
      return id === undefined ? <BundlesPage /> : <BundlePage handle={id} />;
    case 'evals':
      // Keyed by the whole hash: a "Run this version" link fills the settings in anew.
      if (id === undefined) return <EvalsPage key={window.location.hash} />;
      if (id === 'mine' && sub !== undefined) return <OwnDatasetPage key={sub} name={sub} />;
      // Keyed: another run's page (a baseline's link) starts afresh, not from this run's state.
      return <EvalRunPage key={id} jobId={id} />;
    case 'schedules':
      // Keyed by the whole hash: a "Schedule this" link opened from this page again prefills anew.
      if (id === 'new') return <NewSchedulePage key={window.location.hash} />;
      return id === undefined ? <SchedulesPage /> : <SchedulePage scheduleId={id} />;
    case 'webhooks':
      return id === undefined ? <WebhooksPage /> : <WebhookPage webhookId={id} />;
    case 'tools':
      // Keyed: another tool's page starts from its own first operation, not the last tool's choice.
      return id === undefined ? <ToolsPage /> : <ToolPage key={id} name={id} />;
    case 'approvals':
    case undefined:
      return <ApprovalsPage scope={id === 'to-decide' ? 'approver' : 'mine'} />;
    default:
      return (
        <section>
          <h1>Not found</h1>
          <p>
            There is no page here. <a href={href('approvals')}>Go to the approvals inbox</a>.
          </p>
        </section>
      );
  }
}
