import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { EventType, RecordedEvent } from '@telemed/contracts';
import { BookingChecks, requestAppointment, systemContext } from '@telemed/command';
import { MemoryReadStore } from '@telemed/platform';
import { allProjections, bookingLookups, sweepLookups } from '@telemed/query';
import { indiaDate, startTestApp, type TestApp } from '../support/test-app';

const HISTORY = 20_000;

/**
 * Writes `count` confirmed bookings of long ago into the read models through the projections themselves (not the
 * log, which would take minutes to fill): the history a clinic network accumulates.
 */
async function addHistory(t: TestApp, count: number) {
  let position = 10_000_000;
  const apply = async (type: EventType, data: Record<string, unknown>, occurred_at: string) => {
    position += 1;
    const event = {
      event_id: randomUUID(),
      type,
      data,
      metadata: { actor: { user_id: 'system', role: 'system' }, correlation_id: 'history', causation_id: null, occurred_at },
      stream_id: 'history',
      revision: 0,
      position,
    } as unknown as RecordedEvent; // a synthetic event shaped as the log would deliver it
    for (const projection of allProjections) if (projection.handles.has(type)) await projection.apply(event, t.app.readStore);
  };
  const from = Date.parse('2021-01-04T03:30:00Z');
  for (let i = 0; i < count; i += 1) {
    const start = new Date(from + i * 1_800_000).toISOString().replace('.000Z', 'Z');
    const end = new Date(from + i * 1_800_000 + 1_800_000).toISOString().replace('.000Z', 'Z');
    const ids = { slot_id: 900_000_000_000 + i, doctor_id: 'history-doctor', patient_id: 'history-patient' };
    const appointment_id = `hist-${i}`;
    const at = new Date(from + i * 1_800_000 - 86_400_000).toISOString();
    await apply('SlotOpened', { ...ids, start, end }, at);
    await apply('SlotReserved', { ...ids, appointment_id, start, end }, at);
    await apply('AppointmentRequested', { ...ids, appointment_id, start, end, notes: '' }, at);
    await apply('AppointmentApproved', { appointment_id, doctor_id: ids.doctor_id }, at);
  }
}

describe('sweeps over a long history', () => {
  it('look only at pending work: no confirmed booking is read, and the event loop never stalls long', async () => {
    let now = Date.now();
    const t = await startTestApp({ clock: () => new Date(now) });
    try {
      const doctor = await t.createUser('doctor');
      const patient = await t.createUser('patient');
      const [staleSlot, orphanSlot] = await t.openSlots(doctor, [
        { date: indiaDate(1), time: '09:00' },
        { date: indiaDate(1), time: '09:30' },
      ]);
      const stale = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: staleSlot, notes: 'x' }).expect(201);
      await assert.rejects(
        requestAppointment(t.app.eventStore, { slot_id: orphanSlot!, notes: '', patient_id: patient.user_id }, systemContext(new Date(now), null), new BookingChecks(t.app.eventStore, bookingLookups(t.app.readStore)), {
          afterSlotReserved: () => {
            throw new Error('crash between the two writes');
          },
        }),
      );
      await t.settle();
      await addHistory(t, HISTORY);

      const streamsRead: string[] = [];
      const readStream = t.app.eventStore.readStream.bind(t.app.eventStore);
      t.app.eventStore.readStream = (stream) => {
        streamsRead.push(stream);
        return readStream(stream);
      };
      now += 2 * 86_400_000; // past the stale request's start and the orphan's grace
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      await t.app.runSweepsNow();
      delay.disable();

      assert.deepEqual(streamsRead.filter((s) => s.includes('hist-') || s.includes('900000')), [], 'no historical booking is read');
      assert.ok(streamsRead.length <= 10, `only the pending work is read (${streamsRead.length} streams)`);
      await t.settle();
      const history = await t.http.get(`/api/v1/appointments/${stale.body.appointment_id}/history`).set(patient.auth).expect(200);
      assert.ok(history.body.events.some((e: { type: string }) => e.type === 'AppointmentExpired'), 'the stale request expired');
      const orphan = (await t.app.eventStore.readStream(`slot-${orphanSlot}`)).at(-1)!;
      assert.equal(orphan.type, 'SlotReleased', 'the orphaned reservation was released');
      const stallMs = delay.max / 1e6;
      // The class of bug is a sweep that grows with history (seconds at 100k events); the 50 ms aim is the growth
      // benchmark's, measured alone. Beside the other test files on a 2-core machine, a few tens of ms is noise.
      assert.ok(stallMs < 150, `longest event-loop stall during the sweep ${stallMs.toFixed(1)} ms`);
    } finally {
      await t.close();
    }
  });
});

describe('sweep lookups', () => {
  it('page through pending reservations after a cursor, ties on the time included, each once, oldest first', async () => {
    const store = new MemoryReadStore();
    const pending = store.collection<{ _id: string; appointment_id: string; slot_id: number; reserved_at: string; reserved_event_id: string }>('pending_reservations');
    for (let i = 0; i < 25; i += 1) {
      const appointment_id = `a-${String(i).padStart(2, '0')}`;
      await pending.put({ _id: appointment_id, appointment_id, slot_id: i, reserved_at: `2030-01-01T00:0${Math.floor(i / 10)}:00.000Z`, reserved_event_id: `e-${i}` });
    }
    const lookups = sweepLookups(store);
    const seen: string[] = [];
    let after: Awaited<ReturnType<typeof lookups.reservationsMadeBefore>>[number] | null = null;
    for (;;) {
      const page = await lookups.reservationsMadeBefore(new Date('2030-01-01T00:01:30Z'), { after, limit: 4 });
      seen.push(...page.map((r) => r.appointment_id));
      if (page.length < 4) break;
      after = page.at(-1)!;
    }
    assert.deepEqual(seen, Array.from({ length: 20 }, (_, i) => `a-${String(i).padStart(2, '0')}`));
  });
});
