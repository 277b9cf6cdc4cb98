// Browser mode: the renderer alone, served by the Node host (`npm run web`) and talking over the WebSocket bridge.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: resolve(__dirname, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: resolve(__dirname, 'out/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
