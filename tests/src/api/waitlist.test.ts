import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, WAITLIST_HOLD_MINUTES, streams, type EventData } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { connect } from '../support/ws-client';
import { dispatchMessage, handleCommand, messageDecider, messageIdFor, systemContext } from '@telemed/command';

/**
 * A doctor's waitlist (issue 35): a slot freed in the days a patient waits for is offered to the first place waiting
 * and held for them for 15 minutes (no one else may book it meanwhile); declined or unanswered, it goes to the next.
 */
describe('waitlist', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  type Place = { doctor_id: string; status: string; offer: { slot_id: number; until: string } | null };
  const mine = async (patient: TestUser) => {
    const res = await spec.read((http) => http.get('/api/v1/waitlist/me').set(patient.auth));
    assert.equal(res.status, 200, res.text);
    return res.body as Place[];
  };
  const join = (doctor: TestUser, patient: TestUser, days = { from: indiaDate(1), to: indiaDate(10) }) =>
    spec.when((http) => http.post(`/api/v1/doctors/${doctor.user_id}/waitlist`).set(patient.auth).send({ ...days, timezone: 'Asia/Kolkata' }));
  const cancel = (appointmentId: string, patient: TestUser) => spec.when((http) => http.post(`/api/v1/appointments/${appointmentId}/cancel`).set(patient.auth).send({}));

  it('a freed slot is held for the first place waiting: nobody else may book it; accepting books it and ends the place', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const [booker, first, second, stranger] = [await spec.given.patient(), await spec.given.patient(), await spec.given.patient(), await spec.given.patient()];
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient: booker, at: { days: 3, time: '10:00' } });

    const joined = (await join(doctor, first)).expectStatus(201).expectEvents([{ stream: streams.waitlist(doctor.user_id, first.user_id), type: 'WaitlistJoined' }]);
    assert.deepEqual({ ...joined.body, doctor_name: undefined }, { doctor_id: doctor.user_id, doctor_name: undefined, from: indiaDate(1), to: indiaDate(10), status: 'waiting', offer: null });
    (await join(doctor, second)).expectStatus(201);
    (await join(doctor, first)).expectStatus(409).expectBody({ detail: API_TEXTS.waitlistAlready, code: 'waitlist_already' }).expectNoEvents();

    const freed = (await cancel(appointment_id, booker)).expectStatus(200);
    freed.expectReactions([
      { stream: streams.slot(slot.slot_id), type: 'SlotReleased' },
      { stream: streams.slot(slot.slot_id), type: 'SlotHeld', data: { patient_id: first.user_id } },
      { stream: streams.waitlist(doctor.user_id, first.user_id), type: 'WaitlistOfferMade', data: { slot_id: slot.slot_id } },
    ]);
    const [place] = await mine(first);
    assert.equal(place?.status, 'offered');
    assert.equal(new Date(place!.offer!.until).getTime(), now.getTime() + WAITLIST_HOLD_MINUTES * 60_000);
    // The second place and anyone else see nothing of it, and cannot book it while it is held.
    assert.deepEqual((await mine(second)).map((p) => p.offer), [null]);
    (await spec.when((http) => http.post('/api/v1/appointments').set(stranger.auth).send({ slot_id: slot.slot_id, notes: 'Cough' })))
      .expectStatus(409)
      .expectBody({ detail: API_TEXTS.slotNotAvailable, code: 'slot_not_available' })
      .expectNoEvents();
    const open = await spec.read((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(stranger.auth));
    assert.ok(!(open.body.slots as Array<{ slot_id: number }>).some((s) => s.slot_id === slot.slot_id), 'a held slot is not listed');

    (await spec.when((http) => http.post(`/api/v1/doctors/${doctor.user_id}/waitlist/accept`).set(first.auth).send({ notes: 'Fever for two days' })))
      .expectStatus(201)
      .expectEvents([
        { stream: streams.slot(slot.slot_id), type: 'SlotReserved', data: { patient_id: first.user_id } },
        { type: 'AppointmentRequested' },
        { stream: streams.waitlist(doctor.user_id, first.user_id), type: 'WaitlistLeft', data: { reason: 'booked' } },
      ]);
    assert.deepEqual(await mine(first), []);
    (await spec.when((http) => http.post(`/api/v1/doctors/${doctor.user_id}/waitlist/accept`).set(first.auth).send({ notes: 'Again' }))).expectStatus(409).expectNoEvents();
  });

  it('declined or unanswered, the slot goes to the next place; a place that left is skipped; days outside a place are not offered', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const [booker, first, second, third, later] = [await spec.given.patient(), await spec.given.patient(), await spec.given.patient(), await spec.given.patient(), await spec.given.patient()];
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient: booker, at: { days: 3, time: '11:00' } });
    (await join(doctor, later, { from: indiaDate(5), to: indiaDate(9) })).expectStatus(201);
    (await join(doctor, first)).expectStatus(201);
    (await join(doctor, third)).expectStatus(201);
    (await join(doctor, second)).expectStatus(201);
    (await spec.when((http) => http.delete(`/api/v1/doctors/${doctor.user_id}/waitlist`).set(third.auth))).expectStatus(200).expectBody({ doctor_id: doctor.user_id, status: 'closed' });

    (await cancel(appointment_id, booker)).expectStatus(200);
    assert.equal((await mine(first))[0]?.status, 'offered', 'the first place covering the day (not the one waiting for later days)');
    (await spec.when((http) => http.post(`/api/v1/doctors/${doctor.user_id}/waitlist/decline`).set(first.auth)))
      .expectStatus(200)
      .expectReactions([
        { stream: streams.slot(slot.slot_id), type: 'SlotHeld', data: { patient_id: second.user_id } },
        { stream: streams.waitlist(doctor.user_id, second.user_id), type: 'WaitlistOfferMade' },
      ]);
    assert.equal((await mine(third)).length, 0, 'the place that left is not offered');

    // Unanswered: after the hold's time the sweep passes it on, and nobody is left (first let it go): it is open again.
    now = new Date(now.getTime() + WAITLIST_HOLD_MINUTES * 60_000);
    await t.app.runSweepsNow();
    await t.settle();
    assert.equal((await mine(second))[0]?.status, 'waiting');
    const stranger = await spec.given.patient();
    (await spec.when((http) => http.post('/api/v1/appointments').set(stranger.auth).send({ slot_id: slot.slot_id, notes: 'Cough' }))).expectStatus(201);
  });

  it('two patients racing for a held slot both lose it to its holder, who books it after them', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const [booker, waiting, racerA, racerB] = [await spec.given.patient(), await spec.given.patient(), await spec.given.patient(), await spec.given.patient()];
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient: booker, at: { days: 4, time: '12:00' } });
    (await join(doctor, waiting)).expectStatus(201);
    (await cancel(appointment_id, booker)).expectStatus(200);
    assert.equal((await mine(waiting))[0]?.status, 'offered');
    const race = await Promise.all(
      [racerA, racerB].map((racer) => t.http.post('/api/v1/appointments').set(racer.auth).send({ slot_id: slot.slot_id, notes: 'Race' })),
    );
    assert.deepEqual(race.map((res) => res.status), [409, 409]);
    (await spec.when((http) => http.post(`/api/v1/doctors/${doctor.user_id}/waitlist/accept`).set(waiting.auth).send({ notes: 'Back pain' }))).expectStatus(201);
  });

  it('the patient is told of the held time, on their socket and by a message that is dropped once the offer ends', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const [booker, waiting, other] = [await spec.given.patient(), await spec.given.patient(), await spec.given.patient()];
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient: booker, at: { days: 3, time: '15:00' } });
    (await join(doctor, waiting)).expectStatus(201);
    (await join(doctor, other)).expectStatus(201);
    const base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    const [waitingSocket, otherSocket] = [connect(base, waiting.user_id, waiting.token), connect(base, other.user_id, other.token)];
    await Promise.all([waitingSocket.next('connection_established'), otherSocket.next('connection_established')]);

    (await cancel(appointment_id, booker)).expectStatus(200);
    await t.settle();
    const update = await waitingSocket.next('waitlist_update');
    assert.deepEqual(update.data, { doctor_id: doctor.user_id, status: 'offered' });
    // Nobody else on the waitlist hears of it.
    await otherSocket.roundTrip();
    assert.deepEqual(otherSocket.messages.filter((m) => m.type === 'waitlist_update'), []);

    const queued = (await t.app.eventStore.readAll({ fromPosition: 0, limit: 100_000 })).filter(
      (e) => e.type === 'MessageQueued' && (e.data as { kind: string; recipient_id: string }).kind === 'waitlist_offer' && (e.data as { recipient_id: string }).recipient_id === waiting.user_id,
    );
    assert.equal(queued.length, 1);
    const message = queued[0]!.data as EventData<'MessageQueued'> & { start: string; waitlist_offer: { doctor_id: string; slot_id: number } };
    assert.deepEqual([message.recipient_id, message.appointment_id, Date.parse(message.start), message.waitlist_offer.doctor_id, message.waitlist_offer.slot_id], [waiting.user_id, null, slot.start.getTime(), doctor.user_id, slot.slot_id]);

    // Sent at once (the patient has an e-mail address).
    await t.settle();
    assert.deepEqual((await t.app.eventStore.readStream(queued[0]!.stream_id)).map((e) => e.type).slice(-1), ['MessageSent']);

    // Let go: a message about that offer whose turn comes only now (quiet hours, a retry) is dropped, never sent.
    (await spec.when((http) => http.post(`/api/v1/doctors/${doctor.user_id}/waitlist/decline`).set(waiting.auth))).expectStatus(200);
    assert.equal((await waitingSocket.next('waitlist_update')).data?.status, 'waiting');
    const late = { ...message, message_id: messageIdFor('late-offer'), idempotency_key: 'late-offer' } as EventData<'MessageQueued'>;
    await handleCommand(t.app.eventStore, streams.message(late.message_id), messageDecider, { type: 'QueueMessage', data: late }, systemContext(now, null));
    await dispatchMessage({ eventStore: t.app.eventStore, clock: () => now, logger: t.app.logger, senders: new Map(), publicUrl: 'http://127.0.0.1' }, late.message_id);
    const stream = await t.app.eventStore.readStream(streams.message(late.message_id));
    assert.deepEqual(stream.map((e) => [e.type, (e.data as { reason?: string }).reason]), [['MessageQueued', undefined], ['MessageCancelled', 'offer_ended']]);
    // The slot went on to the next place, who is told in turn.
    assert.equal((await otherSocket.next('waitlist_update')).data?.status, 'offered');
    waitingSocket.socket.close();
    otherSocket.socket.close();
  });

  it("an erased patient's places close, and so do all places on an erased doctor's waitlist; places whose days have passed close", async () => {
    now = new Date();
    const [doctor, otherDoctor] = [await spec.given.doctor(), await spec.given.doctor()];
    const [erased, waiting] = [await spec.given.patient(), await spec.given.patient()];
    (await join(doctor, erased)).expectStatus(201);
    (await join(otherDoctor, erased)).expectStatus(201);
    (await join(otherDoctor, waiting)).expectStatus(201);
    (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(erased.auth))).expectStatus(200);
    await t.settle();
    const lastOf = async (d: TestUser, p: TestUser) => (await t.app.eventStore.readStream(streams.waitlist(d.user_id, p.user_id))).at(-1);
    assert.deepEqual([(await lastOf(doctor, erased))?.type, (await lastOf(otherDoctor, erased))?.type], ['WaitlistLeft', 'WaitlistLeft']);
    assert.equal((await lastOf(otherDoctor, waiting))?.type, 'WaitlistJoined', "another patient's place stays");

    (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(otherDoctor.auth))).expectStatus(200);
    await t.settle();
    assert.deepEqual((await lastOf(otherDoctor, waiting))?.data, { doctor_id: otherDoctor.user_id, patient_id: waiting.user_id, reason: 'ended' });

    const late = await spec.given.patient();
    (await join(doctor, late, { from: indiaDate(1), to: indiaDate(2) })).expectStatus(201);
    now = new Date(Date.now() + 5 * 86_400_000); // two days past its last day in every zone
    await t.app.runSweepsNow();
    await t.settle();
    assert.equal((await lastOf(doctor, late))?.type, 'WaitlistLeft');
    assert.deepEqual(await mine(late), []);
  });

  it('checks the days and who may act', async () => {
    now = new Date();
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    (await join(doctor, patient, { from: indiaDate(2), to: indiaDate(1) }))
      .expectStatus(422)
      .expectBody({ detail: API_TEXTS.waitlistDaysInvalid('30'), code: 'waitlist_days_invalid', values: ['30'] })
      .expectNoEvents();
    (await join(doctor, patient, { from: indiaDate(-1), to: indiaDate(3) })).expectStatus(422).expectNoEvents();
    (await join(doctor, patient, { from: indiaDate(1), to: indiaDate(40) })).expectStatus(422).expectNoEvents();
    (await join(patient, patient)).expectStatus(404).expectNoEvents();
    (await join(doctor, doctor)).expectStatus(403).expectNoEvents();
    (await spec.when((http) => http.post(`/api/v1/doctors/${doctor.user_id}/waitlist/decline`).set(patient.auth))).expectStatus(404).expectNoEvents();
    (await spec.when((http) => http.delete(`/api/v1/doctors/${doctor.user_id}/waitlist`).set(patient.auth))).expectStatus(404).expectNoEvents();
  });
});
