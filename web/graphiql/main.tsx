import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Monaco's editor, JSON and GraphQL workers, bundled by Vite as files of this origin (no CDN).
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import './graphiql-page.css';
import { GraphiqlPage } from './graphiql-page.js';

const root = document.getElementById('graphiql-root');
if (!root) throw new Error('The GraphiQL page has no #graphiql-root element.');
createRoot(root).render(
  <StrictMode>
    <GraphiqlPage />
  </StrictMode>,
);
