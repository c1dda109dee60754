import { MESSAGE_ATTEMPT_LEASE_MS, maskAddress, streams, type EventData, type MessageChannel } from '@telemed/contracts';
import type { LanguageCode } from '@telemed/contracts/languages';
import { ChannelSendError } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { channelSendKey, messageDecider, messageIdFor, type MessageState } from './message';
import type { MessagingDeps } from './dispatch';
import type { RenderedMessage } from './render';

/**
 * Sends a message while its request waits (a sign-in code, which is kept nowhere to be sent later): queued, then tried
 * on each of `channels` in turn until one provider accepts it, each step an event like any message's. Returns the
 * channel it went out on, or null when every one refused.
 */
export async function sendNow(
  deps: MessagingDeps,
  message: { idempotency_key: string; kind: EventData<'MessageQueued'>['kind']; recipient_id: string | null; language: LanguageCode; to: string; rendered: RenderedMessage },
  channels: readonly MessageChannel[],
): Promise<MessageChannel | null> {
  const messageId = messageIdFor(message.idempotency_key);
  const stream = streams.message(messageId);
  const context = systemContext(deps.clock(), null);
  let loaded: { state: MessageState; revision: number | null } | undefined;
  const decide = async (command: Parameters<typeof messageDecider.decide>[0]) => {
    const result = await handleCommand(deps.eventStore, stream, messageDecider, command, { ...context, now: deps.clock() }, loaded);
    loaded = { state: result.state, revision: result.events.length ? result.events[result.events.length - 1]!.revision : (loaded?.revision ?? null) };
    return result.state;
  };
  await decide({
    type: 'QueueMessage',
    data: { message_id: messageId, idempotency_key: message.idempotency_key, kind: message.kind, recipient_id: message.recipient_id, appointment_id: null, offset_minutes: null, start: null, due_at: deps.clock().toISOString(), doctor_name: null },
  });
  const usable = channels.filter((channel) => deps.senders.has(channel));
  for (;;) {
    const state = await decide({ type: 'StartAttempt', data: { now: deps.clock(), channels: usable, lease_ms: deps.leaseMs ?? MESSAGE_ATTEMPT_LEASE_MS } });
    if (state.status !== 'sending' || !state.current) return null;
    const { channel, attempt } = state.current;
    const sender = deps.senders.get(channel)!;
    try {
      const sent = await sender.send({ message_id: messageId, idempotency_key: channelSendKey(message.idempotency_key, channel), channel, kind: message.kind, language: message.language, to: message.to, ...message.rendered });
      await decide({ type: 'RecordSent', data: { channel, attempt, provider_message_id: sent.provider_message_id, to_masked: maskAddress(message.to) } });
      return channel;
    } catch (error) {
      deps.logger.warn({ messageId, channel, provider: sender.provider, error: error instanceof Error ? error.message : String(error) }, 'message send failed');
      // Waiting is no use to someone looking at a sign-in screen: each channel gets one try here.
      await decide({ type: 'RecordFailure', data: { channel, attempt, error: error instanceof Error ? error.message : 'send failed', permanent: true, now: deps.clock(), channels: usable } });
      if (!(error instanceof ChannelSendError) && !(error instanceof Error)) return null;
    }
  }
}
