import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { IntlMessageFormat } from 'intl-messageformat';
import { json, renderAt } from '../../test/render';
import { I18nProvider } from '../../i18n/I18nProvider';
import english from '../../i18n/catalogues/en/institution.json';
import { INVITATION_TEXTS } from './Invitations';
import { InstitutionAdmin } from './InstitutionAdmin';
import { AppointmentsDialog } from './InstitutionsPage';

const messages: Record<string, string> = english;
const say = (id: string) => new IntlMessageFormat(messages[id]!, 'en-IN').format();

describe('the institution catalogue', () => {
  it('says the invitation texts the tests look for, word for word', () => {
    expect(say('institution.invitationsHeading')).toBe(INVITATION_TEXTS.heading);
    expect(say('institution.invitationSent')).toBe(INVITATION_TEXTS.sent);
    expect(say('institution.invitationAccepted')).toBe(INVITATION_TEXTS.accepted);
    expect(say('institution.invitationDeclined')).toBe(INVITATION_TEXTS.declined);
    expect(say('institution.answerFailed')).toBe(INVITATION_TEXTS.failed);
    expect(say('institution.invitationNotFound')).toBe(INVITATION_TEXTS.notFound);
    expect(say('institution.answeredAccepted')).toBe(INVITATION_TEXTS.answered.accepted);
    expect(say('institution.answeredDeclined')).toBe(INVITATION_TEXTS.answered.declined);
    expect(say('institution.answeredRevoked')).toBe(INVITATION_TEXTS.answered.revoked);
  });
});

describe('the institution screens in Hindi', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("Manage Institution: its headings, a doctor's fee in rupees and role", async () => {
    const institution = {
      id: 'i-1',
      name: 'Sunrise Clinic',
      slug: 'sunrise-clinic',
      address: 'MG Road, Pune',
      phone: '+91 20 1234 5678',
      email: 'desk@sunrise.in',
      is_active: true,
      doctors: [
        {
          doctor_id: 'd-1',
          name: 'Dr. Meera Iyer',
          email: 'meera@sunrise.in',
          phone_number: null,
          specialty: 'Cardiology',
          qualification: 'MD',
          consultation_fee: 1500,
          is_active: true,
          is_institution_admin: false,
        },
      ],
      pending_invitations: [],
    };
    vi.stubGlobal('fetch', vi.fn(async () => json(200, institution)));
    renderAt('/institution-admin', <I18nProvider language="hi"><InstitutionAdmin /></I18nProvider>);
    expect(await screen.findByRole('heading', { name: 'संस्था संभालें' })).toBeTruthy();
    const doctor = await screen.findByTestId('institution-doctor');
    expect(doctor.textContent).toContain('₹1,500');
    expect(doctor.textContent).toContain('भूमिका: डॉक्टर');
    expect(screen.getByRole('button', { name: 'डॉक्टर जोड़ें' })).toBeTruthy();
  });

  it('Confirmed Appointments: its title, and each date in Hindi', async () => {
    const appointment = { id: 'a-1', patient: { name: 'Ravi' }, doctor: { name: 'Dr. Rao' }, slot: { start_at: '2030-03-15T06:30:00Z' }, status: 'confirmed', notes: '' };
    vi.stubGlobal('fetch', vi.fn(async () => json(200, [appointment])));
    renderAt('/institutions', <I18nProvider language="hi"><AppointmentsDialog institution={{ id: 'i-1', name: 'Sunrise Clinic' }} onClose={() => undefined} /></I18nProvider>);
    expect(await screen.findByText('कन्फ़र्म अपॉइंटमेंट — Sunrise Clinic')).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/15 मार्च 2030/)).toBeTruthy());
    expect(screen.getByText('कन्फ़र्म')).toBeTruthy();
  });
});
