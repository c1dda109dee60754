import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, SLOT_MINUTES } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { answerInvitation, createInstitution, giveConsent, handleCommand, registerUser, setAvailability, systemContext, walletDecider } from '@telemed/command';
import { streams } from '@telemed/contracts';
import type { LanguageCode } from '@telemed/contracts/languages';

const DEMO_DOCTORS = [
  { name: 'Dr. Ananya Sharma', specialty: 'General Medicine', qualification: 'MBBS, MD', fee: 399, council: 'Delhi Medical Council', city: 'New Delhi', languages: ['en', 'hi', 'pa'] },
  { name: 'Dr. Rohan Iyer', specialty: 'Pediatrics', qualification: 'MBBS, DCH', fee: 499, council: 'Tamil Nadu Medical Council', city: 'Chennai', languages: ['en', 'ta'] },
  { name: 'Dr. Meera Kulkarni', specialty: 'Dermatology', qualification: 'MBBS, MD (Dermatology)', fee: 599, council: 'Maharashtra Medical Council', city: 'Pune', languages: ['en', 'hi', 'mr'] },
  { name: 'Dr. Arjun Banerjee', specialty: 'Cardiology', qualification: 'MBBS, MD, DM (Cardiology)', fee: 799, council: 'West Bengal Medical Council', city: 'Kolkata', languages: ['en', 'hi', 'bn'] },
  { name: 'Dr. Kavya Reddy', specialty: 'Psychiatry', qualification: 'MBBS, MD (Psychiatry)', fee: 449, council: 'Telangana State Medical Council', city: 'Hyderabad', languages: ['en', 'hi', 'te'] },
] as const satisfies ReadonlyArray<{ name: string; specialty: string; qualification: string; fee: number; council: string; city: string; languages: readonly LanguageCode[] }>;

/** The demo patient's credits beside the starting grant: enough for many bookings with the demo doctors. */
const DEMO_PATIENT_CREDITS = 20_000;

/** Morning and evening clinic hours, as 30-minute slots in local time. */
const DEMO_HOURS = [
  ['09:00', '12:00'],
  ['17:00', '19:00'],
] as const;

function weekOfSlots(now: Date) {
  const slots: Array<{ slot_date: string; start_time: string; end_time: string }> = [];
  const today = DateTime.fromJSDate(now, { zone: DEFAULT_TIMEZONE }).startOf('day');
  for (let day = 0; day < 7; day += 1) {
    const date = today.plus({ days: day });
    for (const [from, to] of DEMO_HOURS) {
      let start = DateTime.fromISO(`${date.toISODate()}T${from}`, { zone: DEFAULT_TIMEZONE });
      const end = DateTime.fromISO(`${date.toISODate()}T${to}`, { zone: DEFAULT_TIMEZONE });
      for (; start < end; start = start.plus({ minutes: SLOT_MINUTES })) {
        if (start.toMillis() <= now.getTime()) continue;
        slots.push({
          slot_date: start.toISODate()!,
          start_time: start.toFormat('HH:mm:ss'),
          end_time: start.plus({ minutes: SLOT_MINUTES }).toFormat('HH:mm:ss'),
        });
      }
    }
  }
  return slots;
}

/** A few doctors across the seeds' specialties with a week of availability, and a demo patient. */
export async function seedDemoData(eventStore: EventStore, now: Date, startingCredits?: number) {
  const context = { ...systemContext(now, null), actor: { user_id: 'demo-data', role: 'system' as const } };
  let slots = 0;
  const doctorEmails: string[] = [];
  for (const [i, doctor] of DEMO_DOCTORS.entries()) {
    doctorEmails.push(`doctor${i + 1}@demo.telemed.local`);
    const { user_id } = await registerUser(
      eventStore,
      {
        email: `doctor${i + 1}@demo.telemed.local`,
        name: doctor.name,
        account_type: 'doctor',
        phone_number: `+91 98000 0000${i + 1}`,
        doctor: {
          specialty: doctor.specialty,
          qualification: doctor.qualification,
          consultation_fee: doctor.fee,
          registration_number: `DEMO-${1000 + i}`,
          medical_council: doctor.council,
          city: doctor.city,
          languages: [...doctor.languages],
        },
      },
      context,
    );
    const result = await setAvailability(eventStore, user_id, { slots: weekOfSlots(now), timezone: DEFAULT_TIMEZONE }, context);
    slots += result.opened;
  }
  const patient = await registerUser(
    eventStore,
    { email: 'patient@demo.telemed.local', name: 'Priya Patel', account_type: 'patient', phone_number: '+91 98000 11111' },
    context,
  );
  // The demo patient has read and agreed to the privacy notice, so the demo books at once.
  await giveConsent(eventStore, patient.user_id, {}, { ...context, actor: { user_id: patient.user_id, role: 'patient' } });
  // And credits enough to try many bookings with the demo doctors (whose fees are above the starting grant).
  await handleCommand(eventStore, streams.wallet(patient.user_id), walletDecider, {
    type: 'Adjust',
    data: { patient_id: patient.user_id, credits: DEMO_PATIENT_CREDITS, reason: 'Demo credits', adjusted_by: 'system' },
    grant: startingCredits,
  }, context);
  // A clinic run by the demo institution admin, with the first two demo doctors on its staff: their accounts exist
  // already, so the clinic invites them and (for the demo) they accept; the third doctor's invitation stays pending.
  const { institution_id } = await createInstitution(
    eventStore,
    {
      name: 'Sunrise Family Clinic',
      slug: 'sunrise-family-clinic',
      address: '12 MG Road, Bengaluru 560001',
      phone: '+91 80 4000 1234',
      email: 'contact@sunrise-clinic.in',
      staff: [
        { name: 'Institution Admin', email: 'admin@demo.telemed.local', phone: '+91 98000 22222', account_type: 'ADMIN', role_title: 'Clinic manager' },
        ...doctorEmails.slice(0, 3).map((email, i) => ({ name: DEMO_DOCTORS[i]!.name, email, phone: `+91 98000 0000${i + 1}`, account_type: 'DOCTOR' as const })),
      ],
    },
    context,
  );
  const invitations = (await eventStore.readStream(streams.institution(institution_id))).flatMap((e) =>
    e.type === 'InstitutionStaffInvited' ? [e.data as { invitation_id: string; user_id: string }] : [],
  );
  for (const invitation of invitations.slice(0, 2)) {
    const asDoctor = { ...context, actor: { user_id: invitation.user_id, role: 'doctor' as const } };
    await answerInvitation(eventStore, institution_id, { invitation_id: invitation.invitation_id, user_id: invitation.user_id, accept: true }, asDoctor);
  }
  return { doctors: DEMO_DOCTORS.length, slots, patients: 1, institutions: 1 };
}
