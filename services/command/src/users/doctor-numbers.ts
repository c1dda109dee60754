import type { DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/** Hands out doctor numbers 1, 2, 3, ...; the stream's expected revision makes each number unique. */
export type DoctorNumberEvent = DomainEventOf<'DoctorNumberAssigned'>;
export type DoctorNumberState = { last: number };
export type DoctorNumberCommand = { type: 'AssignDoctorNumber'; data: { doctor_id: string } };

export const doctorNumberDecider: Decider<DoctorNumberState, DoctorNumberCommand, DoctorNumberEvent> = {
  initialState: () => ({ last: 0 }),
  evolve: (state, event) => ({ last: Math.max(state.last, event.data.doctor_number) }),
  decide: (command, state) => [
    { type: 'DoctorNumberAssigned', data: { doctor_id: command.data.doctor_id, doctor_number: state.last + 1 } },
  ],
};
