import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestApp } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';

/**
 * Answers to a signed-in caller hold personal or health data (a reason for a visit, a chat, names and phones): no
 * browser's disk cache or proxy keeps them, so a shared clinic computer holds none of them after its user signed out.
 * Only the record routes said so; a JSON answer with an ETag and no Cache-Control is otherwise stored and revalidated.
 */
describe('answers with personal data are never stored by a cache', () => {
  it('every signed-in read says private, no-store; an answer made for revalidation (open slots) may be kept; public ones are untouched', async () => {
    let now = new Date();
    const t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    try {
      const doctor = await t.createUser('doctor', { name: 'Dr. Cache Menon' });
      const patient = await t.createUser('patient', { name: 'Cache Patient' });
      const id = await heldAppointment(t, { doctor, patient, hour: 9, setNow: (d) => (now = d), notes: 'Chest pain at night' });
      await t.http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: 'How long has it hurt?' }).expect(201);
      await t.settle();
      const reads: Array<[string, { Authorization: string }]> = [
        ['/api/v1/users/me', patient.auth],
        ['/api/v1/appointments/me?include_past=true', doctor.auth],
        ['/api/v1/appointments/me?include_past=true', patient.auth],
        [`/api/v1/appointments/${id}/history`, doctor.auth],
        [`/api/v1/consultations/${id}`, doctor.auth],
        [`/api/v1/consultations/${id}/messages`, patient.auth],
        ['/api/v1/users/me/access-log', patient.auth],
        ['/api/v1/users/me/consents', patient.auth],
      ];
      const stored: string[] = [];
      for (const [url, auth] of reads) {
        const res = await t.http.get(url).set(auth).expect(200);
        if (!/\bno-store\b/.test(String(res.headers['cache-control'] ?? ''))) stored.push(`${url}: ${res.headers['cache-control'] ?? '(none)'}`);
      }
      assert.deepEqual(stored, [], 'each answer says no-store');

      const slots = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
      assert.equal(slots.headers['cache-control'], 'private, no-cache', "a doctor's open slots are revalidated by their ETag");
      await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).set('If-None-Match', slots.headers.etag!).expect(304);
      const notice = await t.http.get('/api/v1/consents/notice').expect(200);
      assert.doesNotMatch(String(notice.headers['cache-control'] ?? ''), /no-store/, 'a public answer is not marked');
    } finally {
      await t.close();
    }
  });
});
