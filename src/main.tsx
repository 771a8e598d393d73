import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectClientToSession } from './app/sessionActions';
import { queryClient } from './api/queryClient';
import { preloadNightScreen } from './features/night/preload';
import { session } from './state/session';
import { initI18n } from './i18n';
import './styles/tokens.css';
import './styles/base.css';
import './styles/auth.css';
import './styles/shell.css';
import './styles/pages.css';

connectClientToSession();
// A signed-in reload of a night: its data is asked for now, beside the translations and the first render.
if (session.token) preloadNightScreen(queryClient, window.location.pathname, window.location.search);

// Translations first: the first paint is already in the user's language and direction.
void initI18n().then(() => {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
