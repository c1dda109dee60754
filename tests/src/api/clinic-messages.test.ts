import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AdminPermissions } from '@telemed/contracts/admin';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { givenInstitution } from '../support/given-institution';

/**
 * The console's permissions for the message log (issue 34): a clinic's member who may read its appointments may see
 * the messages of those appointments ('show', on an appointment's page), never the whole log ('list', the operators');
 * a member without that right sees neither, and the server answers each as the permissions say.
 */
describe("the console's permissions for a clinic's messages", () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const permissionsOf = async (user: TestUser): Promise<AdminPermissions> => {
    const answer = await spec.read((http) => http.get('/api/v1/admin/permissions').set(user.auth));
    assert.equal(answer.status, 200, answer.text);
    return answer.body as AdminPermissions;
  };
  const messagesOf = (user: TestUser, appointmentId?: string) =>
    spec.read((http) => http.get('/api/v1/admin/messages').query(appointmentId ? { filter: JSON.stringify({ appointment_id: appointmentId }) } : {}).set(user.auth));

  it("names messages ['show'] for a member who may read appointments, nothing for one who may not; ['list', 'show', 'edit'] for an operator", async () => {
    const clinic = await givenInstitution(spec, {
      name: 'Lotus Clinic',
      address: '4 Park Street',
      phone: '+91 33 4000 1234',
      email: 'contact@lotus.in',
      staff: [
        { name: 'Lata Rao', email: 'lata@lotus.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
        { name: 'Ananya Sharma', email: 'ananya@lotus.in', phone: '+91 90000 22222', account_type: 'DOCTOR' },
        { name: 'Sita Menon', email: 'sita@lotus.in', phone: '+91 90000 33333', account_type: 'STAFF' },
      ],
    });
    const admin = await clinic.member('lata@lotus.in', 'patient');
    const doctor = await clinic.member('ananya@lotus.in', 'doctor');
    const staff = await clinic.member('sita@lotus.in', 'patient');
    const { appointment_id } = await spec.given.appointment({ doctor, patient: await spec.given.patient() });

    // The clinic's admin (and its doctor, whose role has 'appointments'): the messages of an appointment they can see.
    for (const [who, member] of [['the admin', admin], ['the doctor', doctor]] as const) {
      const permissions = await permissionsOf(member);
      assert.equal(permissions.kind, 'institution', who);
      assert.deepEqual(permissions.resources.appointments, ['list', 'show', 'export'], who);
      assert.deepEqual(permissions.resources.messages, ['show'], `${who}: an appointment's messages, not the whole log`);
    }
    // ...which the server answers: that appointment's, and not the whole log.
    const read = await messagesOf(admin, appointment_id);
    assert.equal(read.status, 200, read.text);
    assert.ok((read.body as Array<{ appointment_id: string }>).every((m) => m.appointment_id === appointment_id));
    assert.equal((await messagesOf(admin)).status, 403, "the whole log is the operators'");

    // A member of the STAFF role (read and basic operations, no appointments): no messages, as the server answers.
    const staffs = await permissionsOf(staff);
    assert.equal(staffs.kind, 'institution');
    assert.deepEqual(staffs.resources.staff, ['list', 'show']);
    assert.equal(staffs.resources.appointments, undefined);
    assert.equal(staffs.resources.messages, undefined, 'no messages without the right to read appointments');
    assert.equal((await messagesOf(staff, appointment_id)).status, 403);

    // The platform's operator: the whole log, an appointment's on its page, and a failed one sent again.
    assert.deepEqual((await permissionsOf(clinic.operator)).resources.messages, ['list', 'show', 'edit']);
    assert.equal((await messagesOf(clinic.operator)).status, 200);
  });
});
