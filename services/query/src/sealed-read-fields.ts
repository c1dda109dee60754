import { openSealedField, type Doc, type KeyRing, type ReadCollection, type ReadStore } from '@telemed/platform';

/** Opens one document's sealed fields into a copy (the document itself when none of them is sealed). */
type DocOpener = (doc: Doc, keys: KeyRing) => Promise<Doc>;

/** A document's own fields, each holding the named event field as the projection stored it. */
function ownFields(fields: Record<string, readonly [type: string, field: string]>): DocOpener {
  return async (doc, keys) => {
    let copy: Record<string, unknown> | null = null;
    for (const [name, [type, field]] of Object.entries(fields)) {
      const value = (doc as Record<string, unknown>)[name];
      const opened = await openSealedField(keys, type, field, value);
      if (opened !== value) (copy ??= { ...doc })[name] = opened;
    }
    return (copy ?? doc) as Doc;
  };
}

/** A history entry: the event's data as the projection stored it, under the entry's event type. */
const historyData: DocOpener = async (doc, keys) => {
  const entry = doc as Doc & { type: string; data?: Record<string, unknown> };
  if (!entry.data) return doc;
  let data: Record<string, unknown> | null = null;
  for (const [field, value] of Object.entries(entry.data)) {
    const opened = await openSealedField(keys, entry.type, field, value);
    if (opened !== value) (data ??= { ...entry.data })[field] = opened;
  }
  return data ? { ...entry, data } : doc;
};

/** Versions kept under these keys of the document (a consultation's final notes and draft), each the event's data. */
function versions(keys: readonly string[], type: string): DocOpener {
  return async (doc, ring) => {
    let copy: Record<string, unknown> | null = null;
    for (const key of keys) {
      const version = (doc as Record<string, unknown>)[key] as Record<string, unknown> | null | undefined;
      if (!version) continue;
      let opened: Record<string, unknown> | null = null;
      for (const [field, value] of Object.entries(version)) {
        const plain = await openSealedField(ring, type, field, value);
        if (plain !== value) (opened ??= { ...version })[field] = plain;
      }
      if (opened) (copy ??= { ...doc })[key] = opened;
    }
    return (copy ?? doc) as Doc;
  };
}

/**
 * The read models that hold fields kept sealed (contracts' sealedInReadModels), and where: what projections copy from
 * AppointmentRequested.notes, AppointmentRejected.reason, AppointmentCancelled.reason, a consultation's chat, and the
 * free text of its notes, of a patient's reports and prescription files, and of an e-prescription.
 */
const SEALED_READ_FIELDS: Record<string, DocOpener> = {
  appointments: ownFields({
    notes: ['AppointmentRequested', 'notes'],
    rejection_reason: ['AppointmentRejected', 'reason'],
    cancellation_reason: ['AppointmentCancelled', 'reason'],
  }),
  appointment_history: historyData,
  consultation_messages: ownFields({ text: ['ConsultationMessagePosted', 'text'] }),
  consultation_notes: versions(['final', 'draft'], 'ConsultationNotesSaved'),
  medical_reports: ownFields({ report_summary: ['MedicalReportUploaded', 'report_summary'], additional_notes: ['MedicalReportUploaded', 'additional_notes'] }),
  prescription_files: ownFields({
    medication_summary: ['PrescriptionFileUploaded', 'medication_summary'],
    additional_notes: ['PrescriptionFileUploaded', 'additional_notes'],
  }),
  prescriptions: ownFields({ diagnosis: ['PrescriptionIssued', 'diagnosis'], advice: ['PrescriptionIssued', 'advice'], follow_up: ['PrescriptionIssued', 'follow_up'] }),
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
