import { defineConfig } from 'vite';

// The browser client: built to dist/client and served by the web server (never a dev server in tests).
export default defineConfig({
  root: 'client',
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: false },
});
