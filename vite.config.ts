import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import path from 'node:path';

// The browser app. `npm run dev` serves it with the API proxied to a running server.
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/web'),
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@domain': path.resolve(import.meta.dirname, 'src/domain') } },
  build: { outDir: path.resolve(import.meta.dirname, 'dist/web'), emptyOutDir: true, sourcemap: false },
  server: { port: 5173, proxy: { '/api': 'http://localhost:5000', '/objects': 'http://localhost:5000' } },
});
