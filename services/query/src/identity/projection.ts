import { defineProjection } from '../projections/projection';
import type { SessionDoc } from '../projections/documents';

/** Sessions, so a token of an ended session is refused at once. */
export const sessionsProjection = defineProjection({
  name: 'sessions',
  version: 1,
  collections: ['sessions'],
  // A person's sessions (their export), not every session on the platform.
  indexes: [{ collection: 'sessions', field: 'user_id' }],
  handles: ['SessionStarted', 'SessionEnded'],
  ignores: ['accounts', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet', 'SessionRefreshed'],
  apply: async (event, store) => {
    const sessions = store.collection<SessionDoc>('sessions');
    switch (event.type) {
      case 'SessionStarted': {
        const { data, metadata } = event;
        return sessions.put({ _id: data.session_id, user_id: data.user_id, method: data.method, started_at: metadata.occurred_at, ended_at: null, ended_reason: null });
      }
      case 'SessionEnded':
        return sessions.patch(event.data.session_id, { ended_at: event.metadata.occurred_at, ended_reason: event.data.reason });
    }
  },
});
