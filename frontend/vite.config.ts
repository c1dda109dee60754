import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  // Every asset also as .gz and .br next to it: the server sends the precompressed file the browser accepts.
  plugins: [react(), compression({ algorithms: ['gzip', 'brotliCompress'], exclude: [/\.map$/], threshold: 1024 })],
  server: { proxy: { '/api': 'http://localhost:8000', '/ws': { target: 'ws://localhost:8000', ws: true }, '/docs': 'http://localhost:8000' } },
  build: { outDir: 'dist', sourcemap: true },
});
