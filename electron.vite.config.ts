// Builds the three Electron bundles. Main and preload are Node-side; the renderer is the same React app that
// browser mode serves (vite.web.config.ts builds it alone, without anything Electron).
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/** `npm run dev` only: the page's CSP meta tag must let the React refresh preamble (an inline script) run. */
const devCsp = (): Plugin => ({
  name: 'oddsdesk-dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
});

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Native modules and their loaders stay outside the bundle; electron-builder unpacks them from the asar.
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          // The store's threads, its checkpointer and its writer: the store starts out/main/checkpointWorker.js and
          // writerWorker.js from beside index.js.
          checkpointWorker: resolve(__dirname, 'src/core/store/threads/checkpointWorker.ts'),
          writerWorker: resolve(__dirname, 'src/core/store/threads/writerWorker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require anything but electron: bundle everything, as CommonJS.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), devCsp()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
