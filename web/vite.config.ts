import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The web console (`index.html`, served at `/`) and GraphiQL (`graphiql.html`, served at `/graphql`
 * to browsers), built into web/dist by `npm run build:web` (run at `npm install` by `prepare`).
 * Two entries, so GraphiQL's editor never weighs on the console's initial JavaScript.
 */
export default defineConfig({
  root: here('.'),
  // Assets are asked for from any page (/, /checks/…, /graphql): absolute URLs.
  base: '/',
  plugins: [react()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    // The budget (250 KB gzipped initial JS) is checked by bench/console.ts, not by a warning here.
    chunkSizeWarningLimit: 4096,
    rollupOptions: { input: { console: here('./index.html'), graphiql: here('./graphiql.html') } },
  },
});
