import { conflict, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/**
 * A pack's order at the payment gateway (issue 36), on `pack_order-<order id>`: whose it is, how many credits it
 * buys and what it costs. A payment of it is trusted only for this patient, these credits and this amount, whatever
 * a browser or a forged webhook says. Its failed payments are recorded once each.
 */
export type PackOrderEvent = DomainEventOf<'PackOrdered' | 'PackPaymentFailed'>;

export type PackOrderState =
  | { status: 'none' }
  | { status: 'ordered'; order_id: string; patient_id: string; credits: number; amount_paise: number; gateway: string; failed: ReadonlySet<string> };

export type PackOrderCommand =
  | { type: 'PlaceOrder'; data: { order_id: string; patient_id: string; credits: number; amount_paise: number; gateway: string } }
  | { type: 'RecordFailure'; data: { payment_id: string; error_code: string | null } };

export function evolvePackOrder(state: PackOrderState, event: PackOrderEvent): PackOrderState {
  if (event.type === 'PackOrdered') return { status: 'ordered', ...event.data, failed: new Set() };
  if (state.status === 'none') return state;
  return { ...state, failed: new Set([...state.failed, event.data.payment_id]) };
}

function decidePackOrder(command: PackOrderCommand, state: PackOrderState): PackOrderEvent[] {
  if (command.type === 'PlaceOrder') {
    if (state.status !== 'none') throw conflict('This order is already recorded');
    return [{ type: 'PackOrdered', data: command.data }];
  }
  if (state.status === 'none' || state.failed.has(command.data.payment_id)) return [];
  return [{ type: 'PackPaymentFailed', data: { order_id: state.order_id, patient_id: state.patient_id, ...command.data } }];
}

export const packOrderDecider: Decider<PackOrderState, PackOrderCommand, PackOrderEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolvePackOrder,
  decide: decidePackOrder,
};
