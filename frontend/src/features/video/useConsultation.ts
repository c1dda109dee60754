import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../../lib/api';
import { consultationApi, type ChatMessage, type ConsultationView } from './api';
import type { CallLog } from './useDebugLog';

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The server's record of the consultation as last read, and `refresh` to read it again (null when it could not be
 * read). Not found is critical: `critical` is given the refusal (to say in the chosen language) and leaves the page.
 */
export function useConsultationRecord(appointmentId: string, critical: (failure: ApiError) => void, log: CallLog) {
  const [consultation, setConsultation] = useState<ConsultationView | null>(null);
  const refresh = useCallback(async () => {
    try {
      const view = await consultationApi.get(appointmentId);
      setConsultation(view);
      return view;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) critical(error);
      else log('warn', 'Could not read the consultation', { error: messageOf(error) });
      return null;
    }
  }, [appointmentId, critical, log]);
  return { consultation, refresh };
}

/** The call's chat: the messages read so far, and `loadMessages` to read those after the last one. */
export function useChatMessages(appointmentId: string, log: CallLog) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const loadMessages = useCallback(async () => {
    try {
      const { messages: next } = await consultationApi.messages(appointmentId, messagesRef.current.at(-1)?.message_id);
      if (next.length > 0) setMessages((all) => [...all, ...next.filter((m) => !all.some((x) => x.message_id === m.message_id))]);
    } catch (error) {
      log('warn', 'Could not load chat messages', { error: messageOf(error) });
    }
  }, [appointmentId, log]);
  return { messages, loadMessages };
}
