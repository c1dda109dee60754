import { useEffect, useState } from 'react';
import type { ConnectionState } from '../../lib/realtime';
import type { ConsultationView } from './api';
import { callClock } from './model';
import type { CallPhase } from './useCallPhase';
import type { JoinedCall } from './useCallConnection';

/** The once-per-second clock of the call, from the server's start and limit; `restart` when a join is answered. */
export function useCallClock(phase: CallPhase['phase'], joined: JoinedCall | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (phase !== 'call') return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [phase]);
  const clock = joined ? callClock(joined.started_at, joined.ends_at, joined.offset, now) : null;
  return { clock, restart: () => setNow(Date.now()) };
}

/** What the page reads again now and then, where a word over the socket may be missing. */
export function useCallPolling(options: {
  phase: CallPhase['phase'];
  socketState: ConnectionState;
  /** A patient whose doctor is not in the consultation yet. */
  waitingForDoctor: boolean;
  /** The call's time limit has passed. */
  over: boolean;
  refresh(): Promise<ConsultationView | null>;
  finish(autoEnded: boolean): void;
  loadMessages(): Promise<void>;
}) {
  const { phase, socketState, waitingForDoctor, over, refresh, finish, loadMessages } = options;
  // While the patient waits for the doctor, or the socket is down, the state is read again now and then.
  useEffect(() => {
    if (phase !== 'lobby' || !waitingForDoctor) return;
    const timer = setInterval(() => void refresh(), socketState === 'connected' ? 15_000 : 5000);
    return () => clearInterval(timer);
  }, [phase, waitingForDoctor, socketState, refresh]);

  // Past the limit the server ends the call and says so; if that word is missed, its record is read.
  useEffect(() => {
    if (!over) return;
    const timer = setInterval(() => {
      void refresh().then((view) => {
        if (view?.status === 'ended') finish(view.auto_ended);
      });
    }, 4000);
    return () => clearInterval(timer);
  }, [over, refresh, finish]);

  // Chat: pushed by the server as consultation updates; read now and then only while the socket is down.
  useEffect(() => {
    if (phase !== 'call' || socketState === 'connected') return;
    const timer = setInterval(() => void loadMessages(), 10_000);
    return () => clearInterval(timer);
  }, [phase, socketState, loadMessages]);
}
