import { match } from 'ts-pattern';
import { DEFAULT_MESSAGE_CHANNELS, type DomainEventOf, type MessageChannelChoice } from '@telemed/contracts';
import type { Decider } from '../decider';

/**
 * How a person is reached outside the browser (issue 34): the channels they allow, their zone for quiet hours, and the
 * mobile number they proved is theirs. A stream of its own beside the account (`contact-<user>`): a few events a
 * lifetime, read whole when a message is sent; the number is under the person's key, so an erasure removes it.
 */
export type ContactEvent = DomainEventOf<'MessagingPreferencesSet' | 'PhoneNumberVerified'>;

export interface ContactState {
  user_id: string | null;
  channels: MessageChannelChoice;
  /** Whether the person ever chose (until then the defaults apply). */
  chosen: boolean;
  time_zone: string | null;
  verified_phone: string | null;
}

export type ContactCommand =
  | { type: 'SetPreferences'; data: { user_id: string; channels: MessageChannelChoice; time_zone?: string | null; source: 'profile' | 'reply' } }
  | { type: 'VerifyPhone'; data: { user_id: string; phone_number: string } };

const sameChoice = (a: MessageChannelChoice, b: MessageChannelChoice) => a.email === b.email && a.sms === b.sms && a.whatsapp === b.whatsapp;

export const contactDecider: Decider<ContactState, ContactCommand, ContactEvent> = {
  initialState: () => ({ user_id: null, channels: DEFAULT_MESSAGE_CHANNELS, chosen: false, time_zone: null, verified_phone: null }),
  evolve: (state, event) =>
    match(event)
      .with({ type: 'MessagingPreferencesSet' }, ({ data }): ContactState => ({ ...state, user_id: data.user_id, channels: data.channels, chosen: true, time_zone: data.time_zone }))
      .with({ type: 'PhoneNumberVerified' }, ({ data }): ContactState => ({ ...state, user_id: data.user_id, verified_phone: data.phone_number }))
      .exhaustive(),
  decide: (command, state) =>
    match(command)
      .with({ type: 'SetPreferences' }, ({ data }): ContactEvent[] => {
        const time_zone = data.time_zone === undefined ? state.time_zone : data.time_zone;
        if (state.chosen && sameChoice(state.channels, data.channels) && time_zone === state.time_zone) return [];
        return [{ type: 'MessagingPreferencesSet', data: { user_id: data.user_id, channels: data.channels, time_zone, source: data.source } }];
      })
      .with({ type: 'VerifyPhone' }, ({ data }): ContactEvent[] =>
        state.verified_phone === data.phone_number ? [] : [{ type: 'PhoneNumberVerified', data: { user_id: data.user_id, phone_number: data.phone_number } }],
      )
      .exhaustive(),
};
