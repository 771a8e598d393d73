import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiPort = Number(process.env.PORT ?? 8080);

export default defineConfig(({ command }) => ({
  plugins: [react()],
  // The built app draws with regl's unchecked build: the checked one validates every call
  // (and asks the GL for errors) at start-up and per draw, tens of milliseconds on a software
  // GL before the first chart (issue 14 point 7). `npm run dev` keeps the checks.
  resolve: command === 'build' ? { alias: [{ find: /^regl$/, replacement: 'regl/dist/regl.unchecked.js' }] } : {},
  // The engine's .wasm is fetched as an asset (new URL(..., import.meta.url)), not imported as
  // an ES module, so no wasm plugin is needed.
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
}));
