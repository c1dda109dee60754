import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SOCKET_TICKET_TTL_SECONDS } from '@telemed/platform';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';

/** The app opens its notification socket with a ticket, so no access token is ever in a socket's address. */
describe('socket tickets', () => {
  let t: TestApp;
  let base: string;
  let patient: TestUser;
  let other: TestUser;

  before(async () => {
    t = await startTestApp();
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    patient = await t.createUser('patient');
    other = await t.createUser('patient');
  });
  after(() => t.close());

  const ticketFor = async (user: TestUser) => (await t.http.post('/api/v1/auth/socket-ticket').set(user.auth).expect(200)).body as { ticket: string; expires_at: string };

  it('opens one socket, once; a second use is refused with the seeds’ code', async () => {
    const { ticket, expires_at } = await ticketFor(patient);
    assert.ok(Math.abs(Date.parse(expires_at) - (Date.now() + SOCKET_TICKET_TTL_SECONDS * 1000)) < 2000);
    const first = connect(base, patient.user_id, ticket);
    await first.next('connection_established');
    assert.deepEqual(await connect(base, patient.user_id, ticket).closed, { code: 4002, reason: 'Invalid authentication token' });
    first.socket.close(1000);
  });

  it("is the caller's alone, is no access token, and needs a signed-in caller", async () => {
    const { ticket } = await ticketFor(patient);
    assert.deepEqual(await connect(base, other.user_id, ticket).closed, { code: 4003, reason: 'User ID mismatch or invalid token payload' });
    const asBearer = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${(await ticketFor(patient)).ticket}`);
    assert.equal(asBearer.status, 401, 'a ticket never stands for an access token');
    await t.http.post('/api/v1/auth/socket-ticket').expect(401);
  });

  it('is refused once it has expired', async () => {
    const issuedAt = new Date(Date.now() - (SOCKET_TICKET_TTL_SECONDS + 1) * 1000);
    const { ticket } = await t.app.tokens.issueSocketTicket({ user_id: patient.user_id, account_type: 'patient' }, issuedAt);
    assert.equal((await connect(base, patient.user_id, ticket).closed).code, 4002);
  });

  it("still takes an access token, the seeds' form, for other clients", async () => {
    const socket = connect(base, patient.user_id, patient.token);
    await socket.next('connection_established');
    socket.socket.close(1000);
  });
});
