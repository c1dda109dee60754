import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/test-app';

describe('API documentation', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('serves an OpenAPI 3.1 document generated from the zod schemas, covering every route', async () => {
    const res = await t.http.get('/openapi.json').expect(200);
    assert.equal(res.body.openapi, '3.1.0');
    const expected = {
      '/api/v1/appointments': ['post'],
      '/api/v1/appointments/{id}/approve': ['post'],
      '/api/v1/appointments/{id}/reject': ['post'],
      '/api/v1/appointments/{id}/cancel': ['post'],
      '/api/v1/appointments/{id}/history': ['get'],
      '/api/v1/appointments/me': ['get'],
      '/api/v1/appointments/pending': ['get'],
      '/api/v1/doctors/': ['get'],
      '/api/v1/doctors/me': ['get'],
      '/api/v1/doctors/{doctor_id}/available-slots': ['get'],
      '/api/v1/schedule-v2/set_availability_v2/': ['post'],
      '/api/v1/schedule-v2/get_appointments_v2/': ['get'],
      '/api/v1/users/me': ['get', 'put'],
      '/api/v1/users/subscribe': ['post'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const method of methods) assert.ok(res.body.paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
    }
    const request = res.body.paths['/api/v1/appointments'].post.requestBody.content['application/json'].schema;
    assert.ok(request.$ref?.endsWith('/AppointmentRequest') || request.properties?.slot_id);
    assert.ok(res.body.components.schemas.AppointmentRequest.required.includes('notes'));
    assert.ok(res.body.paths['/api/v1/appointments'].post.responses['409']);
  });

  it('serves an interactive page at /docs', async () => {
    const res = await t.http.get('/docs/').expect(200);
    assert.match(res.text, /swagger-ui/i);
  });

  it('answers unknown API paths with 404 detail', async () => {
    const res = await t.http.get('/api/v1/nothing-here').expect(404);
    assert.equal(res.body.detail, 'Not found');
  });
});
