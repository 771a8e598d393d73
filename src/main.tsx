import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectClientToSession } from './features/shell/sessionActions';
import { queryClient } from './api/queryClient';
import { preloadNightScreen } from './features/night/preload';
import { session } from './state/session';
import { capabilitiesOf } from './state/roles';
import { initI18n } from './i18n';
import './styles/tokens.css';
import './styles/base.css';
import './styles/auth.css';
import './styles/shell.css';
import './styles/pages.css';

connectClientToSession();
// A signed-in reload of a night: its data is asked for now, beside the translations (not for
// an administrator, who has no patients: the screen says so, with no refused request behind it).
const screenData = session.token && !capabilitiesOf(session.user_details).admin ? preloadNightScreen(queryClient, window.location.pathname, window.location.search) : Promise.resolve();

/**
 * How long the first render waits for a night's queries: with them answered, the first
 * render lays out the charts instead of "Loading…" and a second render (tens of ms on a
 * busy main thread). A slower answer renders the page without them.
 */
const FIRST_RENDER_WAIT_MS = 150;

// Translations first: the first paint is already in the user's language and direction.
void initI18n()
  .then(() => Promise.race([screenData, new Promise<void>((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS))]))
  .then(() => {
    const root = document.getElementById('root');
    if (!root) throw new Error('index.html has no #root element');
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
