import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, eventMetadataSchema, type AccountType, type Actor, type EventMetadata } from '@telemed/contracts';
import type { StoredEvent } from '@telemed/platform';
import { indiaDate, type TestApp, type TestUser } from './test-app';

/**
 * API specifications (DESIGN §10): given facts, when one request, then its answer and the events it appended.
 *
 * - Given: fresh people, slots and appointments for each case, set up through the real API (or events appended to a
 *   stream), so a case depends on no other and runs alone or in any order.
 * - When: one HTTP request, sent with a correlation id of its own once the log is quiet.
 * - Then: its status and body, and the events appended from its start position once the log is quiet again (the process
 *   managers have acted and the read models hold everything), sorted by that correlation id: the request's own writes
 *   (no causing event), the process managers' writes in answer to them (the same correlation id with a cause), and the
 *   rest (a sweep's timer, a case before this one), which are none of this request's doing. So "a refused request
 *   writes nothing" does not depend on what else the app did meanwhile.
 *
 * A write a request makes under a correlation id of its own (a registration's e-mail claim) counts among the rest; but
 * `expectNoEvents` also refuses any event the system appended while the request was in flight (from its start to its
 * answer) in answer to no event: only the request could have written it (the process managers answer events before it
 * were settled first; the timers' sweeps act on due appointments and slots, which a case's fresh facts never are; a
 * request a race test sends meanwhile is a person's).
 *
 *   const spec = apiSpec(await startTestApp());                     // in before(): one app per file
 *   const doctor = await spec.given.doctor();                       // in the case: facts of its own
 *   const { appointment_id } = await spec.given.appointment({ doctor, patient: await spec.given.patient() });
 *   (await spec.when((http) => http.post(`/api/v1/appointments/${appointment_id}/reject`).set(doctor.auth)))
 *     .expectStatus(200)
 *     .expectEvents([{ stream: streams.appointment(appointment_id), type: 'AppointmentRejected' }])
 *     .expectReactions([{ type: 'SlotReleased' }]);
 */
export interface ApiSpec {
  readonly t: TestApp;
  readonly given: Given;
  /** Sends one request (built on the app's supertest agent) and collects what it wrote. */
  when(request: (http: TestApp['http']) => supertest.Test): Promise<Then>;
  /**
   * A read for a case's own checks (not the request under test): sent once the log is quiet, with X-Min-Position at its
   * head, so it sees every write made before it, the process managers' answers included.
   */
  read(request: (http: TestApp['http']) => supertest.Test): Promise<supertest.Response>;
}

export interface Given {
  patient(fields?: UserFields): Promise<TestUser>;
  doctor(fields?: UserFields): Promise<TestUser>;
  /**
   * Opens these slots (days from today in India, local time) for the doctor, besides those given before (a save of
   * availability replaces the open ones); every one must open. Their ids, in the order given.
   */
  slots(doctor: TestUser, slots: SlotAt[]): Promise<number[]>;
  /** One open slot of the doctor: `at`, or the doctor's next half hour from 09:00 two days ahead (and on, a day at a time). */
  slot(doctor: TestUser, at?: SlotAt): Promise<OpenSlot>;
  /** An appointment the patient requested through the API on a new slot of the doctor's, approved when `confirmed`. */
  appointment(options: { doctor: TestUser; patient: TestUser; at?: SlotAt; notes?: string; confirmed?: boolean }): Promise<GivenAppointment>;
  /** Events appended to a stream as they were stored (by `actor`, the system unless told), for facts no request makes. */
  events(stream: string, events: Array<{ type: string; data: unknown; actor?: Actor; occurred_at?: Date }>): Promise<void>;
}

type UserFields = Parameters<TestApp['createUser']>[1];
export interface SlotAt {
  /** Days from today in India. */
  days: number;
  /** Local time in India, HH:mm. */
  time: string;
}
export interface OpenSlot {
  slot_id: number;
  /** Its start, an instant. */
  start: Date;
  date: string;
  time: string;
}
export interface GivenAppointment {
  appointment_id: string;
  slot: OpenSlot;
}

/** An expected event: its type, and when given its stream and the fields of its data that matter (each compared whole). */
export interface ExpectedEvent {
  type: string;
  stream?: string;
  data?: Record<string, unknown>;
}

export class Then {
  constructor(
    readonly label: string,
    readonly response: supertest.Response,
    /** Events the request appended itself, in log order. */
    readonly written: StoredEvent[],
    /** Events process managers appended in answer to the request's, in log order. */
    readonly reactions: StoredEvent[],
    /** Events appended meanwhile that are none of this request's doing. */
    readonly unrelated: StoredEvent[],
    /** Of those, the ones the system appended while the request was in flight, caused by no other event. */
    readonly inFlight: StoredEvent[],
    /** The log's head once the request and everything it set going were written and read. */
    readonly position: number,
  ) {}

  get status(): number {
    return this.response.status;
  }

  get body(): supertest.Response['body'] {
    return this.response.body;
  }

  get headers(): supertest.Response['headers'] {
    return this.response.headers;
  }

  expectStatus(status: number): this {
    assert.equal(this.status, status, `${this.label} answered ${this.status} (${(this.response.text ?? '').slice(0, 500)}), not ${status}`);
    return this;
  }

  /** The whole body. */
  expectBody(body: unknown): this {
    assert.deepEqual(this.body, body, `${this.label}: the body`);
    return this;
  }

  /** Exactly these events, in this order, were appended by the request itself. */
  expectEvents(expected: ExpectedEvent[]): this {
    assert.deepEqual(described(this.written, expected), expected, `${this.label}: the events it appended`);
    return this;
  }

  /**
   * Exactly these events were appended by the process managers in answer to the request: in this order within a type,
   * in any order across types (managers act side by side: the slot releaser and the fee settler answer one rejection).
   */
  expectReactions(expected: ExpectedEvent[]): this {
    const byType = <T extends { type: string }>(events: T[]) => events.map((event, i) => ({ event, i })).sort((a, b) => a.event.type.localeCompare(b.event.type) || a.i - b.i).map(({ event }) => event);
    const wanted = byType(expected);
    assert.deepEqual(described(byType(this.reactions), wanted), wanted, `${this.label}: the events written in answer to it`);
    return this;
  }

  /** A refused request: nothing appended, by it or in answer to it, under its correlation id or one of its own. */
  expectNoEvents(): this {
    assert.deepEqual([...this.written, ...this.reactions, ...this.inFlight].map((e) => `${e.stream_id} ${e.type}`), [], `${this.label}: a refused request must not write events`);
    return this;
  }

  /** The events of one type the request appended. */
  writtenOf(type: string): StoredEvent[] {
    return this.written.filter((e) => e.type === type);
  }
}

/** The actual events, described with the same keys as their expectations, so a mismatch reads as a diff. */
function described(actual: StoredEvent[], expected: ExpectedEvent[]): ExpectedEvent[] {
  return actual.map((event, i) => {
    const like = expected[i];
    const out: ExpectedEvent = { type: event.type };
    if (like?.stream !== undefined) out.stream = event.stream_id;
    if (like?.data !== undefined) {
      const data = (event.data ?? {}) as Record<string, unknown>;
      out.data = Object.fromEntries(Object.keys(like.data).map((key) => [key, data[key]]));
    }
    return out;
  });
}

function metadataOf(event: StoredEvent): EventMetadata | null {
  const parsed = eventMetadataSchema.safeParse(event.metadata);
  return parsed.success ? parsed.data : null;
}

/** The log's events after `from`, every page of them. */
async function eventsAfter(t: TestApp, from: number): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (let position = from; ; ) {
    const page = await t.app.eventStore.readAll({ fromPosition: position, limit: 500 });
    all.push(...page);
    if (page.length < 500) return all;
    position = page.at(-1)!.position;
  }
}

function startOf(date: string, time: string): Date {
  return DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE }).toJSDate();
}

/** The spec helper over a started test app (one app per file; every case gives its own facts). */
export function apiSpec(t: TestApp): ApiSpec {
  // A doctor's next default slot, so two slots of one doctor in one case never meet; and the slots given so far.
  const nextSlot = new Map<string, number>();
  const givenSlots = new Map<string, Array<{ date: string; time: string }>>();
  const create = (accountType: AccountType) => (fields?: UserFields) => t.createUser(accountType, fields);

  const given: Given = {
    patient: create('patient'),
    doctor: create('doctor'),
    async slots(doctor, slots) {
      const wanted = slots.map((s) => ({ date: indiaDate(s.days), time: s.time }));
      const all = [...(givenSlots.get(doctor.user_id) ?? []), ...wanted];
      givenSlots.set(doctor.user_id, all);
      await t.openSlots(doctor, all);
      const open = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(doctor.auth);
      const idAt = new Map((open.body as { slots: Array<{ slot_id: number; start_at: string }> }).slots.map((s) => [Date.parse(s.start_at), s.slot_id]));
      return wanted.map((s) => {
        const id = idAt.get(startOf(s.date, s.time).getTime());
        assert.ok(id !== undefined, `given: the doctor's slot ${s.date} ${s.time} opened`);
        return id;
      });
    },
    async slot(doctor, at) {
      let where = at;
      if (!where) {
        const n = nextSlot.get(doctor.user_id) ?? 0;
        nextSlot.set(doctor.user_id, n + 1);
        // 26 half hours a day from 09:00 (the last at 21:30), then the next day.
        const minutes = 9 * 60 + 30 * (n % 26);
        where = { days: 2 + Math.floor(n / 26), time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}` };
      }
      const [slot_id] = await given.slots(doctor, [where]);
      const date = indiaDate(where.days);
      return { slot_id: slot_id!, start: startOf(date, where.time), date, time: where.time };
    },
    async appointment({ doctor, patient, at, notes = 'Fever', confirmed = false }) {
      const slot = await given.slot(doctor, at);
      const requested = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot.slot_id, notes });
      assert.equal(requested.status, 201, `given: the appointment was requested (${requested.text})`);
      const appointment_id = (requested.body as { appointment_id: string }).appointment_id;
      if (confirmed) {
        const approved = await t.http.post(`/api/v1/appointments/${appointment_id}/approve`).set(doctor.auth);
        assert.equal(approved.status, 200, `given: the appointment was approved (${approved.text})`);
      }
      await t.settle();
      return { appointment_id, slot };
    },
    async events(stream, events) {
      await t.app.eventStore.appendToStream(
        stream,
        events.map((e) => ({
          event_id: randomUUID(),
          type: e.type,
          data: e.data,
          metadata: {
            actor: e.actor ?? { user_id: 'system', role: 'system' },
            correlation_id: `given-${randomUUID()}`,
            causation_id: null,
            occurred_at: (e.occurred_at ?? new Date()).toISOString(),
          } satisfies EventMetadata,
        })),
        { expectedRevision: 'any' },
      );
      await t.settle();
    },
  };

  return {
    t,
    given,
    async when(request) {
      // What earlier steps set going (a process manager's answer) is written before this request's window opens.
      await t.settle();
      const from = await t.app.eventStore.headPosition();
      const correlation = `spec-${randomUUID()}`;
      const test = request(t.http).set('X-Correlation-Id', correlation);
      const label = `${test.method} ${new URL(test.url, 'http://app').pathname}`;
      const response = await test;
      const answeredAt = await t.app.eventStore.headPosition();
      await t.settle();
      const events = await eventsAfter(t, from);
      const written: StoredEvent[] = [];
      const reactions: StoredEvent[] = [];
      const unrelated: StoredEvent[] = [];
      for (const event of events) {
        const metadata = metadataOf(event);
        // Messages outside the browser (issue 34) follow from most requests, and quiet hours in India decide whether one
        // is sent or deferred: a side channel that a case about messages reads from their own streams.
        if (metadata?.correlation_id !== correlation || event.stream_id.startsWith('message-')) unrelated.push(event);
        else (metadata.causation_id === null ? written : reactions).push(event);
      }
      // What the system wrote in the request's flight, in answer to no event: the request's own doing (a person's
      // request sent meanwhile, as a race test does, has that person as its actor).
      const inFlight = unrelated.filter((e) => {
        const metadata = metadataOf(e);
        return e.position <= answeredAt && metadata?.causation_id == null && metadata?.actor.role === 'system' && !e.stream_id.startsWith('message-');
      });
      return new Then(label, response, written, reactions, unrelated, inFlight, events.at(-1)?.position ?? from);
    },
    async read(request) {
      await t.settle();
      return request(t.http).set('X-Min-Position', String(await t.app.eventStore.headPosition()));
    },
  };
}
