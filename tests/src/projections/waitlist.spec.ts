import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';

const waitlist = projectionSpec('waitlist');

/** A doctor's waitlist (issue 35): one place per patient and doctor, in the order they joined, with the offer held for it. */
describe('waitlist projection', () => {
  it('keeps a place from its join, through an offer and its end, to its close', () => {
    const doctor = freshId('doctor');
    const patient = freshId('patient');
    const place = { doctor_id: doctor, patient_id: patient };
    const joined = event('WaitlistJoined', { ...place, from: '2030-01-02', to: '2030-01-10', timezone: 'Asia/Kolkata' }, { at: '2030-01-01T09:00:00.000Z' });
    const offer = { slot_id: 7, start: '2030-01-03T04:00:00.000Z', end: '2030-01-03T04:30:00.000Z', until: '2030-01-01T10:15:00.000Z' };
    const base = (log: { positionOf(e: typeof joined): number }) => ({
      _id: `${doctor}-${patient}`,
      ...place,
      from: '2030-01-02',
      to: '2030-01-10',
      timezone: 'Asia/Kolkata',
      joined_position: log.positionOf(joined),
      joined_at: '2030-01-01T09:00:00.000Z',
    });
    return waitlist
      .given(joined)
      .when(event('WaitlistOfferMade', { ...place, ...offer }))
      .then((log) => ({ waitlist: [{ ...base(log), status: 'offered', offer, offer_until: '2030-01-01T10:15:00Z' }] }));
  });

  it('an offer that ended leaves the place waiting; a left place is closed', () => {
    const doctor = freshId('doctor');
    const patient = freshId('patient');
    const place = { doctor_id: doctor, patient_id: patient };
    const joined = event('WaitlistJoined', { ...place, from: '2030-01-02', to: '2030-01-10', timezone: 'Asia/Kolkata' }, { at: '2030-01-01T09:00:00.000Z' });
    return waitlist
      .given(joined, event('WaitlistOfferMade', { ...place, slot_id: 7, start: '2030-01-03T04:00:00.000Z', end: '2030-01-03T04:30:00.000Z', until: '2030-01-01T10:15:00.000Z' }))
      .when(event('WaitlistOfferEnded', { ...place, slot_id: 7, reason: 'expired' }), event('WaitlistLeft', { ...place, reason: 'left' }))
      .then((log) => ({
        waitlist: [
          {
            _id: `${doctor}-${patient}`,
            ...place,
            from: '2030-01-02',
            to: '2030-01-10',
            timezone: 'Asia/Kolkata',
            joined_position: log.positionOf(joined),
            joined_at: '2030-01-01T09:00:00.000Z',
            status: 'closed',
            offer: null,
            offer_until: null,
          },
        ],
      }));
  });
});
