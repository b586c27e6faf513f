import { lazy, Suspense, useId } from 'react';
import { CheckDetail } from '../checks/check-detail.js';
import { CheckList } from '../checks/check-list.js';
import { ConnectionBanner } from './connection-banner.js';
import { Link } from '../shared/link.js';
import { Overview } from '../overview/overview.js';
import { useRoute } from '../shared/use-route.js';
import { testSessionRoute } from '../test-sessions/test-session-route.js';
import { useTheme, type Theme } from './use-theme.js';
import { Variables } from '../variables/variables.js';
import { ApiKeys } from '../api-keys/api-keys.js';
import { useAccess } from '../access/use-access.js';
import { AccountSwitcher } from './account-switcher.js';
import { useSession } from './session-context.js';

// Screens visited less often load on first visit, keeping the initial JavaScript small.
const CheckForm = lazy(() => import('../checks/check-form.js').then((m) => ({ default: m.CheckForm })));
const Groups = lazy(() => import('../groups/groups.js').then((m) => ({ default: m.Groups })));
const GroupDetail = lazy(() => import('../groups/groups.js').then((m) => ({ default: m.GroupDetail })));
const AlertChannels = lazy(() => import('../alert-channels/alert-channels.js').then((m) => ({ default: m.AlertChannels })));
const StatusPages = lazy(() => import('../status-pages/status-pages.js').then((m) => ({ default: m.StatusPages })));
const StatusPageDetail = lazy(() => import('../status-pages/status-pages.js').then((m) => ({ default: m.StatusPageDetail })));
const Incidents = lazy(() => import('../incidents/incidents.js').then((m) => ({ default: m.Incidents })));
const IncidentDetail = lazy(() => import('../incidents/incidents.js').then((m) => ({ default: m.IncidentDetail })));
const MaintenanceWindows = lazy(() => import('../maintenance/maintenance.js').then((m) => ({ default: m.MaintenanceWindows })));
const TestSessionScreen = lazy(() => import('../test-sessions/test-session-screen.js').then((m) => ({ default: m.TestSessionScreen })));
const Members = lazy(() => import('../members/members.js').then((m) => ({ default: m.Members })));
const YourSecurity = lazy(() => import('../security/your-security.js').then((m) => ({ default: m.YourSecurity })));
const AuditLog = lazy(() => import('../audit-log/audit-log.js').then((m) => ({ default: m.AuditLog })));
const MaintenanceWindowDetail = lazy(() => import('../maintenance/maintenance.js').then((m) => ({ default: m.MaintenanceWindowDetail })));

/** Header, navigation and the screen the path names. */
export function Shell({ onSignOut }: { onSignOut(): void }) {
  const { path } = useRoute();
  const [theme, setTheme] = useTheme();
  const themeId = useId();
  const { can } = useAccess();
  const { session } = useSession();
  const section = path === '/' ? 'overview' : path.startsWith('/checks') ? 'checks' : path === '/variables' ? 'variables' : path.startsWith('/groups') ? 'groups' : path.startsWith('/alert-channels') ? 'alerts'
    : path.startsWith('/status-pages') ? 'status-pages' : path.startsWith('/incidents') ? 'incidents' : path.startsWith('/maintenance') ? 'maintenance' : testSessionRoute(path) ? 'test-sessions' : '';
  return (
    <>
      <a className="skip-link" href="#content">Skip to content</a>
      <ConnectionBanner />
      <header className="topbar">
        <Link to="/" className="topbar__brand">Lookout</Link>
        <nav aria-label="Main">
          <Link to="/" aria-current={section === 'overview' ? 'page' : undefined}>Overview</Link>
          <Link to="/checks" aria-current={section === 'checks' ? 'page' : undefined}>Checks</Link>
          <Link to="/groups" aria-current={section === 'groups' ? 'page' : undefined}>Groups</Link>
          <Link to="/alert-channels" aria-current={section === 'alerts' ? 'page' : undefined}>Alert channels</Link>
          <Link to="/status-pages" aria-current={section === 'status-pages' ? 'page' : undefined}>Status pages</Link>
          <Link to="/incidents" aria-current={section === 'incidents' ? 'page' : undefined}>Incidents</Link>
          <Link to="/maintenance" aria-current={section === 'maintenance' ? 'page' : undefined}>Maintenance</Link>
          <Link to="/test-sessions" aria-current={section === 'test-sessions' ? 'page' : undefined}>Test sessions</Link>
          <Link to="/variables" aria-current={section === 'variables' ? 'page' : undefined}>Variables</Link>
        </nav>
        <div className="topbar__tools">
          <AccountSwitcher />
          {can('manage') && <Link to="/members" aria-current={path === '/members' ? 'page' : undefined}>Members</Link>}
          {can('manage') && <Link to="/audit-log" aria-current={path === '/audit-log' ? 'page' : undefined}>Audit log</Link>}
          <Link to="/api-keys" aria-current={path === '/api-keys' ? 'page' : undefined}>API keys</Link>
          {session && <Link to="/security" aria-current={path === '/security' ? 'page' : undefined} title={session.user.email}>Your security</Link>}
          <a href="/graphql">GraphiQL</a>
          <a href="/docs">API docs</a>
          <label htmlFor={themeId} className="visually-hidden">Colour theme</label>
          <select id={themeId} value={theme} onChange={(e) => setTheme(e.target.value as Theme)}>
            <option value="system">System theme</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
          <button type="button" className="button" onClick={onSignOut}>Sign out</button>
        </div>
      </header>
      <main id="content" tabIndex={-1}>
        <Suspense fallback={<p aria-busy="true">Loading…</p>}>
          <Screen path={path} />
        </Suspense>
      </main>
    </>
  );
}

/** Said instead of a form the caller's role may not use (a typed or bookmarked address). */
function RoleForbids({ what }: { what: string }) {
  return <section><h1>Not for your role</h1><p>Your role in this account does not allow you to {what}. <Link to="/">Go to the overview</Link>.</p></section>;
}

function Screen({ path }: { path: string }) {
  const { can } = useAccess();
  if (path === '/' || path === '') return <Overview />;
  if ((path === '/checks/new' || /^\/checks\/[^/]+\/edit$/.test(path)) && !can('write')) return <RoleForbids what="create or change checks" />;
  if (path === '/checks' || path === '/checks/') return <CheckList />;
  if (path === '/checks/new') return <CheckForm />;
  if (path === '/variables') return <Variables />;
  if (path === '/api-keys') return <ApiKeys />;
  if (path === '/members') return <Members />;
  if (path === '/security') return <YourSecurity />;
  if (path === '/audit-log') return <AuditLog />;
  if (path === '/groups' || path === '/groups/') return <Groups />;
  if (path === '/alert-channels' || path === '/alert-channels/') return <AlertChannels />;
  if (path === '/status-pages' || path === '/status-pages/') return <StatusPages />;
  if (path === '/incidents' || path === '/incidents/') return <Incidents />;
  if (path === '/maintenance' || path === '/maintenance/') return <MaintenanceWindows />;
  const statusPage = /^\/status-pages\/([^/]+)$/.exec(path);
  if (statusPage) return <StatusPageDetail key={statusPage[1]} id={decodeURIComponent(statusPage[1]!)} />;
  const incident = /^\/incidents\/([^/]+)$/.exec(path);
  if (incident) return <IncidentDetail key={incident[1]} id={decodeURIComponent(incident[1]!)} />;
  const maintenance = /^\/maintenance\/([^/]+)$/.exec(path);
  if (maintenance) return <MaintenanceWindowDetail key={maintenance[1]} id={decodeURIComponent(maintenance[1]!)} />;
  const group = /^\/groups\/([^/]+)$/.exec(path);
  if (group) return <GroupDetail key={group[1]} id={decodeURIComponent(group[1]!)} />;
  const edit = /^\/checks\/([^/]+)\/edit$/.exec(path);
  if (edit) return <CheckForm key={edit[1]} id={decodeURIComponent(edit[1]!)} />;
  const session = testSessionRoute(path);
  if (session) return <TestSessionScreen route={session} />;
  const detail = /^\/checks\/([^/]+)$/.exec(path);
  if (detail) return <CheckDetail id={decodeURIComponent(detail[1]!)} />;
  return (
    <section>
      <h1>Not found</h1>
      <p>No console page lives at {path}. <Link to="/">Go to the overview</Link>.</p>
    </section>
  );
}
