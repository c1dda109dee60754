import type { Doc, KeyRing, ReadStore } from '@telemed/platform';
import { openSealedFields } from '../sealed-read-fields';
import { APPOINTMENT_PEOPLE } from './projection';
import type { AppointmentDoc, PersonDoc } from '../projections';

/** What an appointment shows of its people: the names always, the rest where the reader's shape has it. */
type Named = Pick<AppointmentDoc, 'patient_id' | 'doctor_id' | 'patient_name' | 'doctor_name'> &
  Partial<Pick<AppointmentDoc, 'patient_phone' | 'doctor_specialty' | 'consultation_fee' | 'agreed_fee'>>;

/**
 * Appointments with their people as they are now (name, phone, the doctor's specialty and fee), looked up by id for
 * the page being answered. A profile change updates one person's document; it used to rewrite every appointment the
 * person ever had (a doctor's fee change: about 2 s of a held event loop at 10 000 appointments on the SQLite store),
 * so a change costs one document and a page the people it shows. An appointment whose person has no document keeps
 * what it was booked with.
 */
export function appointmentPeople(readStore: Pick<ReadStore, 'collection'>) {
  const people = readStore.collection<PersonDoc>(APPOINTMENT_PEOPLE);
  return async function withCurrentPeople<T extends Named>(docs: T[]): Promise<T[]> {
    const ids = new Set<string>();
    for (const doc of docs) ids.add(doc.patient_id).add(doc.doctor_id);
    const found = new Map(await Promise.all([...ids].map(async (id) => [id, await people.get(id)] as const)));
    return docs.map((doc) => {
      const patient = found.get(doc.patient_id);
      const doctor = found.get(doc.doctor_id);
      const current: T = { ...doc };
      if (patient) {
        current.patient_name = patient.name;
        if ('patient_phone' in doc) current.patient_phone = patient.phone_number;
      }
      if (doctor) {
        current.doctor_name = doctor.name;
        if ('doctor_specialty' in doc && doctor.specialty !== null) current.doctor_specialty = doctor.specialty;
        // A fee agreed at booking (a follow-up's, issue 35) stays what was agreed.
        if ('consultation_fee' in doc && doctor.consultation_fee !== null && doc.agreed_fee === undefined) current.consultation_fee = doctor.consultation_fee;
      }
      return current;
    });
  };
}

/**
 * The notifier's look at an appointment it tells its people about (NotifierOptions.appointmentView): the fields the read
 * model keeps sealed opened (null keys: a log without encryption keeps them in clear), and its people as they are now.
 */
export function appointmentMessageView(readStore: Pick<ReadStore, 'collection'>, keys: KeyRing | null) {
  const withCurrentPeople = appointmentPeople(readStore);
  return async <T extends Named & Doc>(stored: T): Promise<T> => (await withCurrentPeople([keys ? await openSealedFields('appointments', stored, keys) : stored]))[0]!;
}
