import { openSealedField, type Doc, type KeyRing, type ReadCollection, type ReadStore } from '@telemed/platform';

/** Opens one document's sealed fields into a copy (the document itself when none of them is sealed). */
type DocOpener = (doc: Doc, keys: KeyRing) => Promise<Doc>;

/** Which event field a member of a stored object holds, `[type, field]`, or null for one that holds none. */
type EventFieldOf = (member: string) => readonly [type: string, field: string] | null;

/** The object with its sealed members opened, as a copy; the object itself when none was sealed. */
async function opened<O extends Record<string, unknown>>(object: O, keys: KeyRing, eventFieldOf: EventFieldOf): Promise<O> {
  let copy: Record<string, unknown> | null = null;
  for (const [member, value] of Object.entries(object)) {
    const source = eventFieldOf(member);
    if (!source) continue;
    const plain = await openSealedField(keys, source[0], source[1], value);
    if (plain !== value) (copy ??= { ...object })[member] = plain;
  }
  return (copy ?? object) as O;
}

/** A document whose members are the event's data under the same names (openSealedField opens only sealed ones). */
const eventData =
  (type: string): DocOpener =>
  (doc, keys) =>
    opened(doc, keys, (member) => [type, member]);

/** A document whose members hold event fields under other names. */
const renamed =
  (members: Record<string, readonly [type: string, field: string]>): DocOpener =>
  (doc, keys) =>
    opened(doc, keys, (member) => members[member] ?? null);

/** A history entry: the event's data as the projection stored it, under the entry's event type. */
const historyData: DocOpener = async (doc, keys) => {
  const entry = doc as Doc & { type: string; data?: Record<string, unknown> };
  if (!entry.data) return doc;
  const data = await opened(entry.data, keys, (member) => [entry.type, member]);
  return data === entry.data ? doc : { ...entry, data };
};

/** Versions kept under these members of the document (a consultation's final notes and draft), each the event's data. */
function versions(members: readonly string[], type: string): DocOpener {
  return async (doc, keys) => {
    let copy: Record<string, unknown> | null = null;
    for (const member of members) {
      const version = (doc as Record<string, unknown>)[member] as Record<string, unknown> | null | undefined;
      if (!version) continue;
      const plain = await opened(version, keys, (field) => [type, field]);
      if (plain !== version) (copy ??= { ...doc })[member] = plain;
    }
    return (copy ?? doc) as Doc;
  };
}

/**
 * The read models that hold fields kept sealed (contracts' sealedInReadModels), and where: what projections copy from
 * AppointmentRequested.notes, AppointmentRejected.reason, AppointmentCancelled.reason, a consultation's chat, the free
 * text of its notes, of a patient's reports and prescription files, and of an e-prescription, the patient's name and
 * details those records carry, a report's particulars, and a stored file's name.
 */
const SEALED_READ_FIELDS: Record<string, DocOpener> = {
  appointments: renamed({
    notes: ['AppointmentRequested', 'notes'],
    rejection_reason: ['AppointmentRejected', 'reason'],
    cancellation_reason: ['AppointmentCancelled', 'reason'],
  }),
  appointment_history: historyData,
  consultation_messages: eventData('ConsultationMessagePosted'),
  consultation_notes: versions(['final', 'draft'], 'ConsultationNotesSaved'),
  medical_reports: eventData('MedicalReportUploaded'),
  record_files: eventData('RecordFileStored'),
  prescription_files: eventData('PrescriptionFileUploaded'),
  prescriptions: eventData('PrescriptionIssued'),
};

/** A document of `collection` as served: its sealed fields opened (the document itself when it has none). */
export async function openSealedFields<T extends Doc>(collection: string, doc: T, keys: KeyRing): Promise<T> {
  const open = SEALED_READ_FIELDS[collection];
  return open ? ((await open(doc, keys)) as T) : doc;
}

function openingCollection<T extends Doc>(collection: ReadCollection<T>, open: DocOpener, keys: KeyRing): ReadCollection<T> {
  return new Proxy(collection, {
    get(target, property, receiver) {
      if (property === 'get') return async (id: string) => {
        const doc = await target.get(id);
        return doc && ((await open(doc, keys)) as T);
      };
      if (property === 'find') return async (...args: Parameters<ReadCollection<T>['find']>) => {
        const docs = await target.find(...args);
        return Promise.all(docs.map(async (doc) => (await open(doc, keys)) as T));
      };
      const member: unknown = Reflect.get(target, property, receiver);
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}

/**
 * The read store as the routes and the notifier read it: the fields read models keep sealed come out in clear (or
 * erased, once their person's key is destroyed). Projections write through the store itself, which keeps them sealed.
 * Without a key ring (a log without encryption) the fields were never sealed and the store is returned as it is.
 */
export function withSealedFieldsOpened(store: ReadStore, keys: KeyRing | null): ReadStore {
  if (!keys) return store;
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'collection') {
        return (name: string) => {
          const collection = target.collection(name);
          const open = SEALED_READ_FIELDS[name];
          return open ? openingCollection(collection, open, keys) : collection;
        };
      }
      const member: unknown = Reflect.get(target, property, receiver);
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}
