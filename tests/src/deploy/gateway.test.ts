import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, repoRoot } from '../support/processes';
import { tmpDataDir } from '../support/test-app';

const caddyMissing = spawnSync('caddy', ['version']).status !== 0 ? 'no caddy binary on this machine (apt-get install caddy)' : false;
if (caddyMissing) console.log(`gateway tests skipped: ${caddyMissing}`);

/** deploy/Caddyfile run by a real Caddy, with a stand-in answering for each service. */
describe('the gateway (deploy/Caddyfile)', { skip: caddyMissing }, () => {
  let caddy: ChildProcess;
  let base: string;
  const upstreams: Server[] = [];

  async function upstream(name: string): Promise<string> {
    const server = createServer((req, res) => void res.setHeader('Content-Type', 'application/json').end(JSON.stringify({ service: name, method: req.method, path: req.url })));
    upstreams.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  before(async () => {
    const dir = tmpDataDir();
    const srv = join(dir, 'srv');
    mkdirSync(join(srv, 'assets'), { recursive: true });
    writeFileSync(join(srv, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(srv, 'assets', 'main-abc.js'), 'console.log(1)');
    const port = await freePort();
    // The local Caddy may be older than the image's: the global trusted_proxies option is left out here.
    const config = readFileSync(join(repoRoot, 'deploy/Caddyfile'), 'utf8')
      .replace(/\n\tservers \{[\s\S]*?\n\t\}\n/, '\n')
      .replace(':8080 {', `:${port} {`)
      .replace('root * /srv', `root * ${srv}`);
    assert.ok(config.includes(`:${port} {`) && config.includes(srv), 'the gateway config was adapted for the test');
    writeFileSync(join(dir, 'Caddyfile'), config);
    const env = { ...process.env, QUERY_URL: await upstream('query'), COMMAND_URL: await upstream('command'), NOTIFIER_URL: await upstream('notifier'), XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, HOME: dir };
    caddy = spawn('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { env, stdio: 'ignore' });
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 500; i++) {
      if (await fetch(`${base}/`).then(() => true, () => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('caddy did not start');
  });
  after(async () => {
    caddy?.kill('SIGTERM');
    for (const server of upstreams) server.close();
  });

  it('sends the API to its services, not to the frontend', async () => {
    const expected: Array<[string, string, string]> = [
      ['GET', '/api/v1/doctors/', 'query'],
      ['POST', '/api/v1/appointments', 'command'],
      ['POST', '/api/v1/auth/support', 'command'],
      ['GET', '/oidc/auth', 'command'],
      ['GET', '/ws/notifications', 'notifier'],
    ];
    for (const [method, path, service] of expected) {
      const res = await fetch(`${base}${path}`, { method });
      const body = (await res.json().catch(() => null)) as { service?: string } | null;
      assert.equal(body?.service, service, `${method} ${path} went to ${body?.service ?? 'the frontend'}`);
    }
  });

  it("answers the app's routes with index.html, its files as they are, and a missing file 404 (never the app)", async () => {
    for (const path of ['/', '/home', '/blog/some-post']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(await res.text(), /id="root"/, path);
    }
    assert.equal(await (await fetch(`${base}/assets/main-abc.js`)).text(), 'console.log(1)');
    for (const path of ['/assets/main-old999.js', '/assets/style-old.css', '/favicon.ico', '/robots.txt', '/assets/']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(await res.text(), /id="root"/, `${path} answered with the app`);
    }
  });
});
