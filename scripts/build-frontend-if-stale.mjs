// Builds the frontend when its output is missing or older than any of its sources, so `npm start` serves it.
import { statSync, existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { glob } from 'tinyglobby';

const output = 'frontend/dist/index.html';
const sources = await glob(['frontend/src/**/*', 'frontend/index.html', 'frontend/vite.config.ts', 'frontend/package.json', 'contracts/src/**/*']);
const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
if (!existsSync(output) || statSync(output).mtimeMs < newest) {
  console.log('Building the frontend…');
  execSync('npm run build -w frontend', { stdio: 'inherit' });
}
