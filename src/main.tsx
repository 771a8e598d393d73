import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectClientToSession } from './app/sessionActions';
import { initI18n } from './i18n';
import './styles/tokens.css';
import './styles/base.css';
import './styles/auth.css';
import './styles/shell.css';
import './styles/pages.css';

connectClientToSession();

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
