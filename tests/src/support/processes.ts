import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts the product (`services/all-in-one/src/main.ts`) as a child process and waits for /healthz. */
export async function startServerProcess(
  env: Record<string, string>,
  entry = 'services/all-in-one/src/main.ts',
  /**
   * How long the first /healthz may take (a first start over a long log builds the read models before listening).
   * Generous: on two busy cores (the suite's own concurrency plus browsers) a start under tsx has taken 20-30 s, and
   * a start is not what these tests time.
   */
  startTimeoutMs = 90_000,
): Promise<{ child: ChildProcess; baseUrl: string; exited: Promise<number | null> }> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // SERVER_NODE_ARGS lets a profiling run pass e.g. --cpu-prof to the server process.
  const extra = process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', entry], {
    cwd: repoRoot,
    // Patients' wallets open with credits enough for any test's bookings, as in startTestApp (TEST_STARTING_CREDITS).
    env: { ...process.env, LOG_LEVEL: 'warn', DEMO_DATA: 'off', HOST: '127.0.0.1', PORT: String(port), STARTING_CREDITS: '1000000', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ? -1 : code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      // A server still starting would outlive the test and keep its runner waiting for it forever.
      child.kill('SIGKILL');
      throw new Error(`server process did not start within ${startTimeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, baseUrl, exited };
}

/** Runs an npm script and returns its stdout. */
export async function runNpm(args: string[], env: Record<string, string>, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', ...args], { cwd: repoRoot, env: { ...process.env, ...env } });
    child.stdin.end(stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
