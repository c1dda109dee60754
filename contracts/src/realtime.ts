/**
 * The real-time channel (`/ws/{userId}?token=`): every message type in both directions and every close code, shared
 * by the notifier and the frontend. Both halves are zod-free (the frontend imports them from `@telemed/contracts/realtime`).
 */
export * from './realtime-codes';
export * from './realtime-messages';
