// The dashboard's entry: first-run setup or sign-in until there is a session, then the page the
// path names, in a layout whose navigation lists only what the user's role may open.
import './styles.css';
import type { ComponentChildren, FunctionComponent } from 'preact';
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, whenSignedOut } from './api.ts';
import { ErrorText, Loading } from './components.tsx';
import { Link, match, navigate, usePath, useSearch } from './router.tsx';
import { SessionContext, useSession } from './session.tsx';
import type { SessionValue } from './session.tsx';
import type { Permission, SessionInfo, SignInState } from './types.ts';
import type { TimeSettings } from './format.ts';
import { TimeSettingsContext } from './time-settings.ts';
import { SetupPage } from './pages/setup.tsx';
import { SignInPage } from './pages/signin.tsx';
import { ServersPage } from './pages/servers.tsx';
import { ServerPage } from './pages/server.tsx';
import { BansPage } from './pages/bans.tsx';
import { QueuePage } from './pages/queue.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { UsersPage } from './pages/users.tsx';
import { ChatRolesPage } from './pages/chat-roles.tsx';
import { AuditPage } from './pages/audit.tsx';
import { AccountsPage } from './pages/accounts.tsx';
import { PartnerKeysPage } from './pages/partner-keys.tsx';
import { TrustPage } from './pages/trust.tsx';
import { PausedWebhooksNotice, WebhooksPage } from './pages/webhooks.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { PlayerProfilePage } from './pages/player-profile.tsx';
import { HeaderSearch, PlayerSearchPage } from './pages/player-search.tsx';

interface PageDef {
  path: string;
  title: string;
  /** Shown and opened only with one of these. */
  needs: Permission[];
  page: FunctionComponent<{ params: Record<string, string> }>;
  /** Listed in the navigation. */
  nav?: boolean;
}

const pages: PageDef[] = [
  { path: '/servers', title: 'Servers', needs: ['servers.read'], page: ServersPage, nav: true },
  { path: '/servers/:id', title: 'Server', needs: ['servers.read'], page: ServerPage },
  { path: '/players', title: 'Players', needs: ['servers.read'], page: PlayerSearchPage },
  { path: '/players/:id', title: 'Player', needs: ['servers.read'], page: PlayerProfilePage },
  { path: '/bans', title: 'Bans', needs: ['bans.manage', 'servers.read'], page: BansPage, nav: true },
  { path: '/queue', title: 'Priority queue', needs: ['queue.manage', 'servers.read'], page: QueuePage, nav: true },
  { path: '/account/api-keys', title: 'API keys', needs: ['apikeys.manage'], page: ApiKeysPage, nav: true },
  { path: '/account/settings', title: 'Settings', needs: ['settings.manage'], page: SettingsPage, nav: true },
  { path: '/users', title: 'Users', needs: ['users.manage'], page: UsersPage, nav: true },
  { path: '/chat-roles', title: 'Chat bots and roles', needs: ['users.manage'], page: ChatRolesPage, nav: true },
  { path: '/webhooks', title: 'Webhooks', needs: ['servers.manage'], page: WebhooksPage, nav: true },
  { path: '/audit', title: 'Audit log', needs: ['audit.read'], page: AuditPage, nav: true },
  { path: '/trust', title: 'Trust pool', needs: ['trust.moderate', 'trust.submit'], page: TrustPage, nav: true },
  { path: '/network/accounts', title: 'Communities', needs: ['accounts.manage'], page: AccountsPage, nav: true },
  { path: '/network/partner-keys', title: 'Partner keys', needs: ['partners.manage'], page: PartnerKeysPage, nav: true },
];

type Phase =
  | { kind: 'loading' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'setup' }
  | { kind: 'signin' }
  | { kind: 'in'; info: SessionInfo; time: TimeSettings };

function App() {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const path = usePath();

  const load = async () => {
    try {
      const setup = await api<{ needsSetup: boolean }>('GET', '/api/setup/status');
      if (setup.needsSetup) return setPhase({ kind: 'setup' });
      // Asked where "nobody is signed in" is an answer, not a 401: the sign-in page logs no failed request.
      const state = await api<SignInState>('GET', '/api/auth/signed-in');
      const info = state.session;
      // Every time on every page is shown in the community's zone: known before the first page.
      const time = info && (await api<TimeSettings>('GET', '/api/account/settings'));
      setPhase(info && time ? { kind: 'in', info, time } : { kind: 'signin' });
    } catch (error) {
      setPhase({ kind: 'failed', error });
    }
  };
  useEffect(() => {
    whenSignedOut(() => setPhase({ kind: 'signin' }));
    void load();
  }, []);

  const session = useMemo<SessionValue | null>(() => {
    if (phase.kind !== 'in') return null;
    const held = new Set(phase.info.permissions);
    return {
      info: phase.info,
      can: (p) => held.has(p),
      setTime: (time) => setPhase({ ...phase, time }),
      signOut: async () => {
        await api('POST', '/api/auth/logout').catch(() => undefined);
        setPhase({ kind: 'signin' });
        navigate('/signin', true);
      },
    };
  }, [phase]);

  if (phase.kind === 'loading')
    return (
      <main id="main">
        <Loading what="the dashboard" />
      </main>
    );
  if (phase.kind === 'failed')
    return (
      <main id="main">
        <h1>Dashboard</h1>
        <ErrorText error={phase.error} />
        <button type="button" onClick={load}>
          Try again
        </button>
      </main>
    );
  if (phase.kind === 'setup') return <SetupPage onDone={load} />;
  if (phase.kind === 'signin') return <SignInPage onDone={load} />;
  return (
    <SessionContext.Provider value={session}>
      <TimeSettingsContext.Provider value={phase.time}>
        <Layout path={path}>
          <Routed path={path} />
        </Layout>
      </TimeSettingsContext.Provider>
    </SessionContext.Provider>
  );
}

function Routed({ path }: { path: string }) {
  const { can } = useSession();
  const search = useSearch();
  const allowed = pages.filter((p) => p.needs.some(can));
  const found = pages.find((def) => match(def.path, path));
  useEffect(() => {
    // The start page, sign-in and setup addresses lead to the first page the role may open.
    if (['/', '/signin', '/setup', ''].includes(path) && allowed[0]) navigate(allowed[0].path, true);
    document.title = `${found?.title ?? 'Page not found'} · Dashboard`;
  }, [path]);
  for (const def of pages) {
    const params = match(def.path, path);
    if (!params) continue;
    if (!def.needs.some(can))
      return (
        <main id="main" tabIndex={-1}>
          <h1>{def.title}</h1>
          <p>Your role cannot open this page.</p>
        </main>
      );
    const Page = def.page;
    return (
      <main id="main" tabIndex={-1}>
        <Page params={params} key={def.path === '/players' ? path : `${path}${search}`} />
      </main>
    );
  }
  if (['/', '/signin', '/setup', ''].includes(path))
    return (
      <main id="main">
        <Loading what="your first page" />
      </main>
    );
  return (
    <main id="main" tabIndex={-1}>
      <h1>Page not found</h1>
      <p>
        No page has this address. <Link href="/servers">Go to the servers</Link>.
      </p>
    </main>
  );
}

function Layout({ path, children }: { path: string; children: ComponentChildren }) {
  const { info, can, signOut } = useSession();
  const listed = pages.filter((p) => p.nav && p.needs.some(can));
  const currentSection = (p: PageDef) => path === p.path || path.startsWith(`${p.path}/`);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to the page
      </a>
      <header class="topbar">
        <Link class="brand" href="/servers">
          Game-server dashboard
        </Link>
        <HeaderSearch />
        <div class="who">
          <span>
            <span class="visually-hidden">Signed in as </span>
            <strong>{info.user.username}</strong> ({info.user.role}, {info.account.name})
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav class="mainnav" aria-label="Dashboard">
        <ul>
          {listed.map((p) => (
            <li key={p.path}>
              <Link href={p.path} aria-current={currentSection(p) ? 'page' : undefined}>
                {p.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {can('servers.manage') && <PausedWebhooksNotice path={path} />}
      {children}
    </>
  );
}

render(<App />, document.getElementById('app')!);
