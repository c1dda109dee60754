import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { RealtimeClient, type ConnectionState } from '../lib/realtime';
import { sessionStore, useSession } from '../lib/session';
import { useToasts } from '../lib/toasts';
import { whenPhrase } from '../lib/time';

export interface IncomingRequest {
  appointment_id: string;
  patient_name: string;
  notes?: string;
  start_at?: string;
  receivedAt: number;
}

const RealtimeContext = createContext<{ state: ConnectionState; requests: IncomingRequest[]; dismissRequest(id: string): void }>({
  state: 'disconnected',
  requests: [],
  dismissRequest: () => {},
});

export const useRealtime = () => useContext(RealtimeContext);

export const LOGOUT_DELAY_MS = 2000;

/** Opens the notification socket while signed in, closes it on logout, and turns its messages into toasts. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const toasts = useToasts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<ConnectionState>('disconnected');
  const [requests, setRequests] = useState<IncomingRequest[]>([]);
  const userId = session?.user.id;
  const token = session?.token;

  useEffect(() => {
    if (!userId || !token) return;
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const client = new RealtimeClient(() => `${scheme}://${window.location.host}/ws/${userId}?token=${encodeURIComponent(token)}`);
    const offs = [
      client.on('state', setState),
      client.on('appointmentStatusChange', (status, data) => {
        void queryClient.invalidateQueries();
        const when = whenPhrase(data.start_at as string | undefined);
        if (status === 'approved') {
          toasts.show({
            type: 'success',
            title: 'Appointment Approved!',
            message: `${String(data.doctor_name ?? 'Your doctor')} approved your appointment for ${when}.`,
            duration: 8000,
            actions: [{ label: 'View Appointments', primary: true, handler: () => navigate('/my-appointments') }],
          });
        } else if (status === 'rejected') {
          const reason = data.rejection_reason ? ` Reason: ${String(data.rejection_reason)}` : '';
          toasts.show({
            type: 'error',
            title: 'Appointment Declined',
            message: `${String(data.doctor_name ?? 'The doctor')} declined your appointment for ${when}.${reason}`,
            duration: 10_000,
            actions: [{ label: 'Book Another', primary: true, handler: () => navigate('/home') }],
          });
        } else {
          toasts.show({ type: 'info', title: 'Appointment update', message: `Your appointment for ${when} is now ${status}.`, duration: 5000 });
        }
      }),
      client.on('appointmentRequest', (data) => {
        void queryClient.invalidateQueries();
        const request: IncomingRequest = {
          appointment_id: String(data.appointment_id),
          patient_name: String(data.patient_name ?? 'A patient'),
          notes: data.notes ? String(data.notes) : undefined,
          start_at: data.start_at ? String(data.start_at) : undefined,
          receivedAt: Date.now(),
        };
        setRequests((all) => [request, ...all.filter((r) => r.appointment_id !== request.appointment_id)]);
        toasts.show({
          type: 'appointment',
          title: 'New Patient Request',
          message: `${request.patient_name} requested ${whenPhrase(request.start_at)}.`,
          autoDismiss: false,
          actions: [
            { label: 'Review', primary: true, handler: () => navigate('/doctor-home') },
            { label: 'Dismiss', handler: () => {} },
          ],
        });
      }),
      client.on('authenticationError', () => {
        toasts.show({ type: 'error', title: 'Authentication failed. Please log in again.', duration: 5000 });
        setTimeout(() => {
          sessionStore.clear();
          navigate('/');
        }, LOGOUT_DELAY_MS);
      }),
      client.on('disconnected', (code) => {
        if (code !== 1000 && code !== 1001 && !(code >= 4001 && code <= 4005)) {
          toasts.show({ type: 'warning', title: 'Connection lost. Attempting to reconnect...', duration: 3000 });
        }
      }),
    ];
    client.connect();
    return () => {
      offs.forEach((off) => off());
      client.disconnect();
      setState('disconnected');
    };
  }, [userId, token, toasts, navigate, queryClient]);

  const value = useMemo(
    () => ({ state, requests, dismissRequest: (id: string) => setRequests((all) => all.filter((r) => r.appointment_id !== id)) }),
    [state, requests],
  );
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}
