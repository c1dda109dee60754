import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections, readModelsChecksum } from '@telemed/query';
import { startTestApp } from '../support/test-app';
import { fileBytes } from '../support/file-traces';

/**
 * The export holds everything the product holds about the person (issue 12). What an institution wrote about a member
 * (title, department, specialization) and about an account it invited (the name, address, phone and the rest it
 * typed) is the person's data under their key; the export left out a member's specialization and everything an
 * invitation says about the invitee. An erasure blanks all of it, live as after a rebuild.
 */
describe('export: what an institution wrote about you', () => {
  it("a member's specialization and an invitation's details are in the export; the invitee's erasure leaves none of them", async () => {
    const t = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    try {
      const operator = await t.createUser('admin', { name: 'Export Operator' });
      const member = { name: 'Meenal Member', email: 'meenal@export-clinic.in', phone: '+91 90011 22334', account_type: 'ADMIN', role_title: 'Clinic lead', department: 'Oncology', specialization: 'Palliative care' };
      const created = await t.http
        .post('/api/v1/institutions/')
        .set(operator.auth)
        .send({ name: 'Export Clinic', slug: 'export-clinic', address: '1 Park Street', phone: '+91 33 4000 1000', email: 'desk@export-clinic.in', staff: [member] })
        .expect(201);
      const institutionId = created.body.id as string;
      const memberAccount = await t.signedIn(member.email, 'patient');
      const memberExport = (await t.http.get('/api/v1/users/me/export').set(memberAccount.auth).expect(200)).body;
      assert.equal(memberExport.institutions[0].specialization, member.specialization, "the member's specialization as the institution holds it");
      assert.equal(memberExport.institutions[0].department, member.department);

      const invitee = await t.createUser('patient', { name: 'Ishaan Invitee' });
      const inviteeEmail = (await t.http.get('/api/v1/users/me').set(invitee.auth).expect(200)).body.email as string;
      const written = { name: 'Ishaan I.', email: inviteeEmail, phone: '+91 95544 33221', account_type: 'STAFF', role_title: 'Counsellor', department: 'Deaddiction unit', specialization: 'Substance use' };
      const invited = await t.http.post('/api/v1/admin/staff').set(operator.auth).send({ institution_id: institutionId, ...written }).expect(201);
      assert.equal(invited.body.status, 'invited');
      await t.settle();
      const inviteeExport = (await t.http.get('/api/v1/users/me/export').set(invitee.auth).expect(200)).body;
      assert.deepEqual(inviteeExport.invitations[0].details_on_record, {
        name: written.name,
        email: written.email,
        phone: written.phone,
        role_title: written.role_title,
        department: written.department,
        specialization: written.specialization,
      });

      await t.http.post('/api/v1/users/me/erasure').set(invitee.auth).expect(200);
      await t.settle();
      const bytes = fileBytes(t.dataDir, 'read-models.db');
      const left = [written.name, written.phone, written.role_title, written.department, written.specialization].filter((v) => bytes.indexOf(v) !== -1);
      assert.deepEqual(left, [], "none of what the invitation said about the erased invitee is left in the read store's file");
      const rebuilt = new MemoryReadStore();
      await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: rebuilt, projections: allProjections }).catchUp();
      assert.equal(await readModelsChecksum(rebuilt, allProjections), await readModelsChecksum(t.app.readStore, allProjections), 'a rebuild from position 0 equals the live read models');
    } finally {
      await t.close();
    }
  });
});
