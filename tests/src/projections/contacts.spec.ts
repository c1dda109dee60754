import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { erased, registered } from '../support/spec-events';

const contacts = projectionSpec('contacts');
const AT = '2026-03-01T08:00:00.000Z';
const LATER = '2026-03-02T08:00:00.000Z';

describe('contacts projection (how each person is reached outside the browser)', () => {
  it('a verified number and chosen channels make the person\'s contact; until they choose, the defaults', () => {
    const asha = freshId('patient');
    const ravi = freshId('patient');
    return contacts
      .given()
      .when(
        event('PhoneNumberVerified', { user_id: asha, phone_number: '+919812345678' }, { at: AT }),
        event('MessagingPreferencesSet', { user_id: asha, channels: { email: false, sms: true, whatsapp: true }, time_zone: 'Asia/Kolkata', source: 'profile' }, { at: LATER }),
        event('PhoneNumberVerified', { user_id: ravi, phone_number: '+919812345679' }, { at: AT }),
      )
      .then({
        contacts: [
          { _id: asha, channels: { email: false, sms: true, whatsapp: true }, time_zone: 'Asia/Kolkata', verified_phone: '+919812345678', updated_at: LATER },
          { _id: ravi, channels: { email: true, sms: true, whatsapp: false }, time_zone: null, verified_phone: '+919812345679', updated_at: AT },
        ],
      });
  });

  it('an erasure removes the number and zone; account events leave the contact', () => {
    const user = freshId('patient');
    return contacts
      .given(event('PhoneNumberVerified', { user_id: user, phone_number: '+919812345678' }, { at: AT }))
      .when(registered({ user_id: user }), erased(user))
      .then({ contacts: [{ _id: user, channels: { email: true, sms: true, whatsapp: false }, time_zone: null, verified_phone: null, updated_at: AT }] });
  });
});
