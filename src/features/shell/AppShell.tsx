import { useEffect, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { useUserQuery } from '../../api/hooks';
import { learnRendererWhenIdle } from '../../charts/gl/canvas';
import { logout } from './sessionActions';
import { PATHS } from '../../routes';
import { capabilitiesOf } from '../../state/roles';
import { authorized, session } from '../../state/session';
import { toggleSidebar, ui } from '../../state/ui';
import { normalisePath } from './guard';
import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { useIdleSignOut } from './useIdleSignOut';
import { usePageTitle } from './usePageTitle';

/** Sidebar, header and content for every signed-in /app page. */
export function AppShell({ children }: { children: ReactNode }) {
  const snap = useSnapshot(session);
  const { sidebarOpen } = useSnapshot(ui);
  const [path] = useLocation();
  const user = useUserQuery();

  // The stored details may be stale (role changed, name edited): the server's win.
  useEffect(() => {
    if (user.data) authorized(user.data);
  }, [user.data]);

  useIdleSignOut(snap.is_authenticated, () => void logout('idle'));

  // Once per browser: whether WebGL draws on the CPU, before the first chart needs to know.
  useEffect(learnRendererWhenIdle, []);

  // The real-time dashboard needs the width; it keeps the sidebar collapsed (spec 1 §2)
  // without overwriting the user's own preference. Someone who may not see it gets the
  // not-found page there, with the sidebar as they left it.
  const caps = capabilitiesOf(snap.user_details);
  const forcedCollapsed = caps.realtime && normalisePath(path) === PATHS.realtime;
  const open = sidebarOpen && !forcedCollapsed;
  const title = usePageTitle(caps);

  return (
    <div className={`app ${open ? 'sidebar-open' : 'sidebar-collapsed'}`}>
      <Sidebar caps={caps} open={open} onToggle={forcedCollapsed ? undefined : toggleSidebar} />
      <div className="app-main">
        {/* The render benchmark measures the charts alone: no notification traffic beside them. */}
        <Header title={title} user={snap.user_details} notifications={normalisePath(path) !== PATHS.bench} />
        <main className="app-content">{children}</main>
      </div>
    </div>
  );
}
