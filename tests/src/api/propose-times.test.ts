import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/**
 * A doctor offers other times (issue 35): up to three open slots, none held; the patient takes one (moved there and
 * confirmed, the old time freed) or declines (cancelled); an offer left unanswered is cancelled by the sweep.
 */
describe('the doctor offers other times', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  type Listed = { appointment_id: string; status: string; status_reason: string | null; reschedules: number; slot: { slot_id: number }; proposal: { slots: Array<{ slot_id: number }>; expires_at: string } | null };
  const listed = async (user: TestUser, id: string) => {
    const list = await spec.read((http) => http.get('/api/v1/appointments/me?status=requested,confirmed,cancelled&include_past=true').set(user.auth));
    assert.equal(list.status, 200, list.text);
    return (list.body as Listed[]).find((a) => a.appointment_id === id);
  };
  const propose = (id: string, user: TestUser, slot_ids: number[]) => spec.when((http) => http.post(`/api/v1/appointments/${id}/propose-times`).set(user.auth).send({ slot_ids }));
  const accept = (id: string, user: TestUser, slot_id: number) => spec.when((http) => http.post(`/api/v1/appointments/${id}/proposal/accept`).set(user.auth).send({ slot_id }));

  it('the patient takes an offered time: moved there and confirmed, the old time offered again', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '10:00' } });
    const first = await spec.given.slot(doctor, { days: 4, time: '11:00' });
    const second = await spec.given.slot(doctor, { days: 5, time: '11:00' });

    (await propose(appointment_id, doctor, [first.slot_id, second.slot_id]))
      .expectStatus(200)
      .expectBody({ appointment_id, status: 'requested' })
      .expectEvents([{ stream: streams.appointment(appointment_id), type: 'AppointmentTimesProposed' }]);
    const offered = await listed(patient, appointment_id);
    assert.deepEqual(offered?.proposal?.slots.map((s) => s.slot_id), [first.slot_id, second.slot_id]);
    assert.equal(offered?.proposal?.expires_at, new Date(slot.start).toISOString().replace('.000Z', 'Z'));

    (await accept(appointment_id, patient, second.slot_id))
      .expectStatus(200)
      .expectBody({ appointment_id, status: 'confirmed', slot_id: second.slot_id, start: second.start.toISOString(), end: new Date(second.start.getTime() + 30 * 60_000).toISOString() })
      .expectEvents([
        { stream: streams.slot(second.slot_id), type: 'SlotReserved' },
        { stream: streams.appointment(appointment_id), type: 'AppointmentRescheduled', data: { rescheduled_by: 'doctor', needs_approval: false } },
        { stream: streams.appointment(appointment_id), type: 'AppointmentApproved' },
        { stream: streams.slot(slot.slot_id), type: 'SlotReleased', data: { reason: 'rescheduled' } },
      ]);
    const after = await listed(patient, appointment_id);
    // The doctor's move is not one of the patient's own (the rules' limit counts only theirs).
    assert.deepEqual(
      { status: after?.status, slot: after?.slot.slot_id, proposal: after?.proposal, reschedules: after?.reschedules },
      { status: 'confirmed', slot: second.slot_id, proposal: null, reschedules: 0 },
    );
    // Answered: nothing more to take.
    (await accept(appointment_id, patient, first.slot_id)).expectStatus(409).expectBody({ detail: API_TEXTS.proposalNone, code: 'proposal_none' }).expectNoEvents();
  });

  it('an offered time someone took meanwhile is refused and the offer stands; a time not offered is refused', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const other = await spec.given.patient();
    const { appointment_id } = await spec.given.appointment({ doctor, patient, confirmed: true, at: { days: 3, time: '12:00' } });
    const offeredSlot = await spec.given.slot(doctor, { days: 4, time: '12:00' });
    const kept = await spec.given.slot(doctor, { days: 4, time: '12:30' });
    const notOffered = await spec.given.slot(doctor, { days: 4, time: '13:00' });
    (await propose(appointment_id, doctor, [offeredSlot.slot_id, kept.slot_id])).expectStatus(200);
    // Offers hold nothing: another patient books one of the times.
    (await spec.when((http) => http.post('/api/v1/appointments').set(other.auth).send({ slot_id: offeredSlot.slot_id, notes: 'Cough' }))).expectStatus(201);

    (await accept(appointment_id, patient, offeredSlot.slot_id)).expectStatus(409).expectNoEvents();
    (await accept(appointment_id, patient, notOffered.slot_id)).expectStatus(409).expectBody({ detail: API_TEXTS.proposalSlotNotOffered, code: 'proposal_slot_not_offered' }).expectNoEvents();
    (await accept(appointment_id, other, kept.slot_id)).expectStatus(404).expectNoEvents();
    (await accept(appointment_id, patient, kept.slot_id))
      .expectStatus(200)
      .expectBody({ appointment_id, status: 'confirmed', slot_id: kept.slot_id, start: kept.start.toISOString(), end: new Date(kept.start.getTime() + 30 * 60_000).toISOString() });
  });

  it('refuses offers of what is not the doctor\'s to offer, and from anyone but the appointment\'s doctor', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const otherDoctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '14:00' } });
    const theirs = await spec.given.slot(otherDoctor, { days: 4, time: '14:00' });
    const mine = await spec.given.slot(doctor, { days: 4, time: '14:00' });
    (await propose(appointment_id, doctor, [theirs.slot_id])).expectStatus(409).expectBody({ detail: API_TEXTS.proposeNotOpen, code: 'propose_not_open' }).expectNoEvents();
    (await propose(appointment_id, doctor, [slot.slot_id])).expectStatus(409).expectBody({ detail: API_TEXTS.proposeSameSlot, code: 'propose_same_slot' }).expectNoEvents();
    (await propose(appointment_id, doctor, [999_999_998])).expectStatus(404).expectNoEvents();
    (await propose(appointment_id, doctor, [mine.slot_id, mine.slot_id])).expectStatus(422).expectNoEvents();
    (await propose(appointment_id, doctor, [1, 2, 3, 4])).expectStatus(422).expectNoEvents();
    (await propose(appointment_id, otherDoctor, [mine.slot_id])).expectStatus(404).expectNoEvents();
    (await propose(appointment_id, patient, [mine.slot_id])).expectStatus(403).expectNoEvents();
  });

  it('declining cancels it as the doctor\'s change; an offer left unanswered is cancelled by the sweep', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const declined = await spec.given.appointment({ doctor, patient, confirmed: true, at: { days: 3, time: '15:00' } });
    const unanswered = await spec.given.appointment({ doctor, patient, confirmed: true, at: { days: 3, time: '16:00' } });
    const a = await spec.given.slot(doctor, { days: 4, time: '15:00' });
    const b = await spec.given.slot(doctor, { days: 4, time: '16:00' });
    (await propose(declined.appointment_id, doctor, [a.slot_id])).expectStatus(200);
    (await propose(unanswered.appointment_id, doctor, [b.slot_id])).expectStatus(200);

    (await spec.when((http) => http.post(`/api/v1/appointments/${declined.appointment_id}/proposal/decline`).set(patient.auth)))
      .expectStatus(200)
      .expectBody({ appointment_id: declined.appointment_id, status: 'cancelled' })
      .expectEvents([{ stream: streams.appointment(declined.appointment_id), type: 'AppointmentCancelled', data: { cancelled_by: 'patient', cause: 'proposal_declined' } }])
      .expectReactions([{ stream: streams.slot(declined.slot.slot_id), type: 'SlotReleased' }]);
    assert.equal((await listed(patient, declined.appointment_id))?.status_reason, 'proposal_declined');

    // Before the offer's end nothing happens; at it, the sweep cancels the appointment.
    await t.app.runSweepsNow();
    assert.equal((await listed(patient, unanswered.appointment_id))?.status, 'confirmed');
    now = new Date(unanswered.slot.start);
    await t.app.runSweepsNow();
    await t.settle();
    const closed = await listed(patient, unanswered.appointment_id);
    assert.deepEqual([closed?.status, closed?.status_reason, closed?.proposal], ['cancelled', 'proposal_unanswered', null]);
  });
});
