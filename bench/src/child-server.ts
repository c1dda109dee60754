import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../tests/src/support/processes';

/** Starts a baseline server script in its own process (as the product runs in its own) and reads its port. */
export async function startScript(script: string, args: string[]): Promise<{ baseUrl: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', () => reject(new Error(`${script} exited before listening`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
