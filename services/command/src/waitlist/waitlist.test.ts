import { describe, it } from 'node:test';
import { API_TEXTS, WAITLIST_MAX_DAYS } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { waitlistDecider, type WaitlistCommand, type WaitlistEvent } from './waitlist';

const spec = deciderSpec(waitlistDecider);
const place = { doctor_id: 'doc-1', patient_id: 'pat-1' };
const joined: WaitlistEvent = { type: 'WaitlistJoined', data: { ...place, from: '2030-01-02', to: '2030-01-10', timezone: 'Asia/Kolkata' } };
const join = (from: string, to: string, today = '2030-01-01'): WaitlistCommand => ({ type: 'JoinWaitlist', data: { ...place, from, to, timezone: 'Asia/Kolkata', today } });
const slot = { slot_id: 7, start: '2030-01-03T04:00:00.000Z', end: '2030-01-03T04:30:00.000Z' };
const until = new Date('2030-01-01T10:15:00.000Z');
const offered: WaitlistEvent = { type: 'WaitlistOfferMade', data: { ...place, ...slot, until: until.toISOString() } };

describe('a place on a doctor\'s waitlist (issue 35)', () => {
  it('is joined for days from today, in order, at most the limit; once at a time', () => {
    spec([]).when(join('2030-01-02', '2030-01-10')).then([joined]);
    spec([]).when(join('2030-01-01', '2030-01-30')).then([{ type: 'WaitlistJoined', data: { ...place, from: '2030-01-01', to: '2030-01-30', timezone: 'Asia/Kolkata' } }]);
    const days = API_TEXTS.waitlistDaysInvalid(String(WAITLIST_MAX_DAYS));
    spec([]).when(join('2030-01-01', '2030-01-31')).thenThrows('invalid', days);
    spec([]).when(join('2029-12-31', '2030-01-05')).thenThrows('invalid', days);
    spec([]).when(join('2030-01-05', '2030-01-04')).thenThrows('invalid', days);
    spec([joined]).when(join('2030-01-02', '2030-01-10')).thenThrows('conflict', API_TEXTS.waitlistAlready);
    spec([joined, { type: 'WaitlistLeft', data: { ...place, reason: 'left' } }]).when(join('2030-01-02', '2030-01-10')).then([joined]);
  });
  it('is offered one slot at a time, never one it let go', () => {
    spec([joined]).when({ type: 'OfferSlot', data: { ...slot, until } }).then([offered]);
    spec([joined, offered]).when({ type: 'OfferSlot', data: { ...slot, slot_id: 8, until } }).then([]);
    const letGo: WaitlistEvent = { type: 'WaitlistOfferEnded', data: { ...place, slot_id: 7, reason: 'declined' } };
    spec([joined, offered, letGo]).when({ type: 'OfferSlot', data: { ...slot, until } }).then([]);
    spec([joined, offered, letGo]).when({ type: 'OfferSlot', data: { ...slot, slot_id: 8, until } }).then([{ ...offered, data: { ...offered.data, slot_id: 8 } }]);
  });
  it('ends an offer when declined, or when its time has passed (not before)', () => {
    spec([joined, offered]).when({ type: 'EndOffer', data: { slot_id: 7, reason: 'declined', now: new Date('2030-01-01T10:00:00Z') } }).then([
      { type: 'WaitlistOfferEnded', data: { ...place, slot_id: 7, reason: 'declined' } },
    ]);
    spec([joined, offered]).when({ type: 'EndOffer', data: { slot_id: 7, reason: 'expired', now: new Date('2030-01-01T10:00:00Z') } }).then([]);
    spec([joined, offered]).when({ type: 'EndOffer', data: { slot_id: 7, reason: 'expired', now: until } }).then([{ type: 'WaitlistOfferEnded', data: { ...place, slot_id: 7, reason: 'expired' } }]);
    spec([joined]).when({ type: 'EndOffer', data: { slot_id: 7, reason: 'declined', now: until } }).thenThrows('conflict', API_TEXTS.waitlistNoOffer);
    spec([]).when({ type: 'EndOffer', data: { slot_id: 7, reason: 'declined', now: until } }).thenThrows('not_found', API_TEXTS.waitlistNotFound);
  });
  it('is done once the offered slot is booked, or left', () => {
    spec([joined, offered]).when({ type: 'RecordBooked', data: { slot_id: 7 } }).then([{ type: 'WaitlistLeft', data: { ...place, reason: 'booked' } }]);
    spec([joined]).when({ type: 'RecordBooked', data: { slot_id: 7 } }).then([]);
    spec([joined]).when({ type: 'LeaveWaitlist', data: { reason: 'left' } }).then([{ type: 'WaitlistLeft', data: { ...place, reason: 'left' } }]);
    spec([joined, { type: 'WaitlistLeft', data: { ...place, reason: 'left' } }]).when({ type: 'LeaveWaitlist', data: { reason: 'left' } }).then([]);
  });
});
