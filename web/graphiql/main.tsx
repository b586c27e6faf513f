import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Monaco's editor, JSON and GraphQL workers, bundled by Vite as files of this origin (no CDN).
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import './graphiql-page.css';
import { GraphiqlPage } from './graphiql-page.js';
import { storedTheme } from '../src/shell/use-theme.js';

// The page around GraphiQL (its bar, the key form) follows the console's theme as the console does.
const theme = storedTheme();
if (theme !== 'system') document.documentElement.dataset.theme = theme;

const root = document.getElementById('graphiql-root');
if (!root) throw new Error('The GraphiQL page has no #graphiql-root element.');
createRoot(root).render(
  <StrictMode>
    <GraphiqlPage />
  </StrictMode>,
);
