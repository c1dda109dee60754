import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment, heldAppointment } from '../support/held-appointment';
import { alignedAppends } from '../support/aligned-appends';
import { connect } from '../support/ws-client';

/**
 * What real users send at once on one consultation: a burst of chat messages from both sides, and both parties
 * pressing Join right after the approval. None of it may meet "The record changed while saving" (409).
 */
describe('a consultation written to by both parties at once', () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let hour = 6;
  const setNow = (at: Date) => (now = at);

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  const answerOf = (res: { status: number; body: { detail?: unknown } }) => `${res.status} ${JSON.stringify(res.body.detail ?? '')}`;

  it('takes 8 chat messages posted at once, round after round, and keeps them all in the order they were stored', async () => {
    const id = await heldAppointment(t, { doctor, patient, hour: (hour += 1), setNow });
    for (let round = 0; round < 8; round += 1) {
      const texts = Array.from({ length: 8 }, (_, i) => `round ${round} message ${i}`);
      const answers = await Promise.all(
        texts.map((text, i) => t.http.post(`/api/v1/consultations/${id}/messages`).set(i % 2 ? doctor.auth : patient.auth).send({ text })),
      );
      assert.deepEqual(answers.map(answerOf), texts.map(() => '201 ""'), `round ${round}: every message is taken`);
    }
    await t.settle();
    const chat = (await t.http.get(`/api/v1/consultations/${id}/messages?limit=200`).set(doctor.auth).expect(200)).body.messages as Array<{ text: string; message_id: string }>;
    assert.equal(chat.length, 64, 'every message is in the chat');
    assert.equal(new Set(chat.map((m) => m.message_id)).size, 64, 'each once');
    for (let round = 0; round < 8; round += 1) {
      const inRound = chat.map((m, at) => ({ at, text: m.text })).filter((m) => m.text.startsWith(`round ${round} `));
      assert.equal(inRound.length, 8, `round ${round} complete`);
      // Rounds were sent one after the other: each round's messages come after every message of the round before.
      if (round > 0) assert.ok(inRound[0]!.at >= round * 8, `round ${round} after round ${round - 1}`);
    }
  });

  it("pushes a message from the chat's own stream to the other participant's socket, as a message of the consultation", async () => {
    const base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    const id = await heldAppointment(t, { doctor, patient, hour: (hour += 1), setNow });
    const socket = connect(base, doctor.user_id, doctor.token);
    try {
      await socket.next('connection_established');
      await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: 'Can you hear me?' }).expect(201);
      for (;;) {
        const update = await socket.next('consultation_update');
        if (update.data?.appointment_id === id && update.data?.event === 'message') break;
      }
    } finally {
      socket.socket.close();
    }
  });

  it('takes 10 messages that reach the store in the same instant, none refused for the revision it was decided on', async () => {
    const id = await heldAppointment(t, { doctor, patient, hour: (hour += 1), setNow });
    const texts = Array.from({ length: 10 }, (_, i) => `at once ${i}`);
    const aligned = alignedAppends(t.app.eventStore, streams.consultation(id), texts.length);
    try {
      const answers = await Promise.all(
        texts.map((text, i) => t.http.post(`/api/v1/consultations/${id}/messages`).set(i % 2 ? doctor.auth : patient.auth).send({ text })),
      );
      assert.deepEqual(answers.map(answerOf), texts.map(() => '201 ""'), 'every message is taken');
      assert.equal(aligned.refused(), 0, 'a chat message does not wait on the revision another message moved');
    } finally {
      aligned.stop();
    }
    await t.settle();
    const chat = (await t.http.get(`/api/v1/consultations/${id}/messages?limit=200`).set(patient.auth).expect(200)).body.messages as Array<{ text: string }>;
    assert.deepEqual(chat.map((m) => m.text).sort(), [...texts].sort(), 'all ten are in the chat');
    const posted = async (stream: string) => (await t.app.eventStore.readStream(stream)).filter((e) => e.type === 'ConsultationMessagePosted').length;
    assert.deepEqual([await posted(streams.consultationChat(id)), await posted(streams.consultation(id))], [10, 0], "in the chat's own stream, none in the consultation's");
  });

  it('lets both parties join at once right after the approval, ten times over', async () => {
    for (let pair = 0; pair < 10; pair += 1) {
      const { id, start } = await bookedAppointment(t, { doctor, patient, hour: (hour += 1), setNow });
      now = new Date(start.getTime() - 2 * 60_000);
      const [byPatient, byDoctor] = await Promise.all([
        t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth),
        t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth),
      ]);
      assert.deepEqual([answerOf(byPatient), answerOf(byDoctor)], ['200 ""', '200 ""'], `pair ${pair}: both joined`);
      assert.equal(byPatient.body.started_at, byDoctor.body.started_at, `pair ${pair}: one consultation, started once`);
      await t.settle();
      const view = (await t.http.get(`/api/v1/consultations/${id}`).set(doctor.auth).expect(200)).body as { participants: Array<{ user_id: string; present: boolean }> };
      assert.deepEqual(
        view.participants.filter((p) => p.present).map((p) => p.user_id).sort(),
        [doctor.user_id, patient.user_id].sort(),
        `pair ${pair}: both are in the call`,
      );
    }
  });

  it('lets both parties join from three devices each in the same instant: every join is taken, the call started once', async () => {
    const { id, start } = await bookedAppointment(t, { doctor, patient, hour: (hour += 1), setNow });
    now = new Date(start.getTime() - 2 * 60_000);
    const joiners = [patient, doctor, patient, doctor, patient, doctor];
    const begun = alignedAppends(t.app.eventStore, streams.appointment(id), joiners.length);
    const started = alignedAppends(t.app.eventStore, streams.consultation(id), joiners.length);
    try {
      const answers = await Promise.all(joiners.map((user) => t.http.post(`/api/v1/consultations/${id}/join`).set(user.auth)));
      assert.deepEqual(answers.map(answerOf), joiners.map(() => '200 ""'), 'every join is taken');
      assert.equal(new Set(answers.map((a) => a.body.started_at)).size, 1, 'one consultation');
    } finally {
      begun.stop();
      started.stop();
    }
    const types = (await t.app.eventStore.readStream(streams.consultation(id))).map((e) => e.type);
    assert.deepEqual(types.filter((type) => type === 'ConsultationStarted'), ['ConsultationStarted'], 'started once');
    assert.equal(types.filter((type) => type === 'ConsultationJoined').length, joiners.length, 'each join recorded');
  });

  it("keeps every notes save the doctor's panel and modal send at once (on two devices), each merged into the one before", async () => {
    const id = await heldAppointment(t, { doctor, patient, hour: (hour += 1), setNow });
    const saves = [
      { chief_complaint: 'Fever' },
      { clinical_assessment: 'Viral fever' },
      { treatment_plan: 'Fluids and rest' },
      { follow_up_instructions: 'Review in 3 days' },
      { additional_notes: 'No allergies' },
      { patient_id: 'OPD-7' },
    ].map((fields) => ({ ...fields, is_draft: true }));
    const aligned = alignedAppends(t.app.eventStore, streams.consultationNotes(id), saves.length);
    try {
      const answers = await Promise.all(saves.map((body) => t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send(body)));
      assert.deepEqual(answers.map(answerOf), saves.map(() => '200 ""'), 'every save is taken');
    } finally {
      aligned.stop();
    }
    const saved = await t.app.eventStore.readStream(streams.consultationNotes(id));
    assert.equal(saved.length, saves.length, 'each save recorded');
    const latest = saved.at(-1)!.data as Record<string, unknown>;
    assert.deepEqual(
      [latest.chief_complaint, latest.clinical_assessment, latest.treatment_plan, latest.follow_up_instructions, latest.additional_notes, latest.patient_ref],
      ['Fever', 'Viral fever', 'Fluids and rest', 'Review in 3 days', 'No allergies', 'OPD-7'],
      'the last save holds every field the others wrote (each merged into the one before it, none lost)',
    );
  });
});
