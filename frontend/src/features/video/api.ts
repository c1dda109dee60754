import type { ApiRoutes, ConsultationView, JoinConsultationResponse } from '@telemed/contracts';
import { ROUTE_PATHS, fillPath } from '@telemed/contracts/route-paths';
import { call } from '../../lib/client';

export type { ConsultationView, JoinConsultationResponse };
export type ChatMessage = ApiRoutes['listConsultationMessages']['response']['messages'][number];

const at = (id: string) => ({ params: { appointment_id: id } });

/** The consultation's API (issue 13): join, state, leave, End Call, chat. */
export const consultationApi = {
  join: (id: string) => call('joinConsultation', at(id)),
  get: (id: string) => call('getConsultation', at(id)),
  leave: (id: string, connectionId: string | null) => call('leaveConsultation', { ...at(id), body: connectionId ? { connection_id: connectionId } : {} }),
  end: (id: string) => call('endConsultation', at(id)),
  messages: (id: string, after?: string) => call('listConsultationMessages', { ...at(id), query: { limit: 100, after } }),
  send: (id: string, text: string) => call('sendConsultationMessage', { ...at(id), body: { text } }),
};

/**
 * Leaves when the page goes away (reload, tab closed): a request that outlives the page, with the bearer token.
 * Best effort; the server also replaces the connection when the same person joins again.
 */
export function leaveOnUnload(id: string, connectionId: string, token: string): void {
  void fetch(`/api/v1${fillPath(ROUTE_PATHS.leaveConsultation.path, { appointment_id: id })}`, {
    method: 'POST',
    keepalive: true,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ connection_id: connectionId }),
  }).catch(() => {});
}
