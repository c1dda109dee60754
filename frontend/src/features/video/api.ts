import type { ConsultationView, JoinConsultationResponse } from '@telemed/contracts';
import { api } from '../../lib/api';

export type { ConsultationView, JoinConsultationResponse };
export interface ChatMessage {
  message_id: string;
  sender_id: string;
  sender_name: string;
  text: string;
  sent_at: string;
}

const base = (id: string) => `/consultations/${encodeURIComponent(id)}`;

/** The consultation's API (issue 13): join, state, leave, End Call, chat. */
export const consultationApi = {
  join: (id: string) => api<JoinConsultationResponse>(`${base(id)}/join`, { method: 'POST' }),
  get: (id: string) => api<ConsultationView>(base(id)),
  leave: (id: string, connectionId: string | null) => api<unknown>(`${base(id)}/leave`, { method: 'POST', body: connectionId ? { connection_id: connectionId } : {} }),
  end: (id: string) => api<{ appointment_id: string; status: string; auto_ended: boolean }>(`${base(id)}/end`, { method: 'POST' }),
  messages: (id: string, after?: string) =>
    api<{ messages: ChatMessage[] }>(`${base(id)}/messages?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`),
  send: (id: string, text: string) => api<{ message_id: string; sent_at: string }>(`${base(id)}/messages`, { method: 'POST', body: { text } }),
};

/**
 * Leaves when the page goes away (reload, tab closed): a request that outlives the page, with the bearer token.
 * Best effort; the server also replaces the connection when the same person joins again.
 */
export function leaveOnUnload(id: string, connectionId: string, token: string): void {
  void fetch(`/api/v1${base(id)}/leave`, {
    method: 'POST',
    keepalive: true,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ connection_id: connectionId }),
  }).catch(() => {});
}
