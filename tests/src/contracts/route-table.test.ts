import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ROUTES, ROUTE_PATHS, type RouteName } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import { startTestApp, type TestApp } from '../support/test-app';

/** The contracts' route table (issue 32): the server implements each of its routes once, as the table says. */
describe('route table', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it('names the same routes in its zod-free half (the paths the frontend calls) and in its schemas', () => {
    assert.deepEqual(Object.keys(ROUTES).sort(), Object.keys(ROUTE_PATHS).sort());
    for (const [name, entry] of Object.entries(ROUTES)) {
      const path = ROUTE_PATHS[name as RouteName];
      assert.deepEqual({ method: entry.method, path: entry.path }, path, name);
    }
  });

  it('every route of the table is implemented exactly once, with its method and path', () => {
    for (const name of Object.keys(ROUTES) as RouteName[]) {
      const implemented = t.app.routes.filter((r) => r.name === name);
      assert.equal(implemented.length, 1, `${name} is implemented once`);
      assert.equal(implemented[0]!.method, ROUTES[name].method);
      assert.equal(implemented[0]!.path, ROUTES[name].path);
    }
  });

  it('every route the app serves is in the table (none declared beside it)', () => {
    assert.deepEqual(
      t.app.routes.filter((r) => !r.name).map((r) => `${r.method} ${r.path}`),
      [],
    );
  });

  it('no two routes share a method and path', () => {
    const keys = t.app.routes.map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), []);
  });

  it("a handler's answer is typed as the route's response (the typecheck fails if a marked line compiles)", () => {
    const implement = (api: ApiRouter) => {
      api.implement('approveAppointment', {
        policy: policies.roles('doctor'),
        // @ts-expect-error a status the response schema does not have
        handler: async ({ params }) => ({ body: { appointment_id: params.id, status: 'maybe' as const } }),
      });
      api.implement('approveAppointment', {
        policy: policies.roles('doctor'),
        // @ts-expect-error a path parameter the route does not have
        handler: async ({ params }) => ({ body: { appointment_id: params.slot, status: 'confirmed' as const } }),
      });
    };
    assert.equal(typeof implement, 'function');
  });
});
