import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { RealtimeClient, type ConnectionState } from '../lib/realtime';
import { call } from '../lib/client';
import { isDoctor, sessionStore, useSession } from '../lib/session';
import { useToasts } from '../lib/toasts';
import { useFormat } from '../i18n/format';
import { useT } from '../i18n/useT';
import { invalidateQueries } from '../lib/queryInvalidation';
import { statusChangeToast } from './statusChangeToast';

export interface IncomingRequest {
  appointment_id: string;
  patient_name: string;
  notes?: string;
  start_at?: string;
  /** A request that is a move (issue 35): where it was before, and who moved it. */
  moved_from?: { start_at: string; by: 'patient' | 'doctor' };
  receivedAt: number;
}

const RealtimeContext = createContext<{
  state: ConnectionState;
  requests: IncomingRequest[];
  dismissRequest(id: string): void;
  /** The open notification socket's client: the video call signals over it (no second socket). */
  client: RealtimeClient | null;
}>({
  state: 'disconnected',
  requests: [],
  dismissRequest: () => {},
  client: null,
});

export const useRealtime = () => useContext(RealtimeContext);

export const LOGOUT_DELAY_MS = 2000;

/** Opens the notification socket while signed in, closes it on logout, and turns its messages into toasts. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const toasts = useToasts();
  const navigate = useNavigate();
  const [state, setState] = useState<ConnectionState>('disconnected');
  const [requests, setRequests] = useState<IncomingRequest[]>([]);
  const [client, setClient] = useState<RealtimeClient | null>(null);
  const userId = session?.user.id;
  const token = session?.token;
  const doctor = isDoctor(session?.user);
  // useNavigate changes identity on every navigation; the socket must not be reopened for that.
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  // Nor for a change of language: the messages read the words of the moment they arrive.
  const t = useT();
  const f = useFormat();
  const words = useRef({ t, f });
  words.current = { t, f };

  /** A handled request (approved, rejected, cancelled, expired) leaves the banner and its toast. */
  const dismissRequest = useCallback(
    (id: string) => {
      setRequests((all) => all.filter((r) => r.appointment_id !== id));
      toasts.dismissKey(requestToastKey(id));
    },
    [toasts],
  );

  useEffect(() => {
    if (!userId || !token) return;
    const go = (path: string) => navigateRef.current(path);
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    // Each connection asks for a socket ticket (valid for seconds, once) rather than putting the access token in the
    // address: a browser prints a dropped socket's address to its console.
    const client = new RealtimeClient(async () => {
      const { ticket } = await call('createSocketTicket');
      return `${scheme}://${window.location.host}/ws/${userId}?token=${encodeURIComponent(ticket)}`;
    });
    const offs = [
      client.on('state', setState),
      client.on('appointmentStatusChange', (status, data) => {
        invalidateQueries();
        if (doctor) dismissRequest(String(data.appointment_id));
        const toast = statusChangeToast(status, data, { doctor, ...words.current, go });
        if (toast) toasts.show(toast);
      }),
      client.on('scheduleUpdate', () => invalidateQueries()),
      client.on('waitlistUpdate', (data) => {
        invalidateQueries();
        // What is held and until when is on the patient's screens (read again just now); the toast says where.
        if (data.status !== 'offered') return;
        const { t } = words.current;
        toasts.show({
          type: 'appointment',
          title: t('shell.waitlistOfferTitle'),
          message: t('shell.waitlistOfferText'),
          duration: 15_000,
          actions: [{ label: t('shell.viewAppointments'), primary: true, handler: () => go('/my-appointments') }],
        });
      }),
      client.on('appointmentRequest', (data) => {
        invalidateQueries();
        const { t, f } = words.current;
        const request: IncomingRequest = {
          appointment_id: String(data.appointment_id),
          patient_name: String(data.patient_name ?? t('shell.aPatient')),
          notes: data.notes ? String(data.notes) : undefined,
          start_at: data.start_at ? String(data.start_at) : undefined,
          moved_from: data.moved_from,
          receivedAt: Date.now(),
        };
        setRequests((all) => [request, ...all.filter((r) => r.appointment_id !== request.appointment_id)]);
        const when = f.whenPhrase(request.start_at);
        toasts.show({
          type: 'appointment',
          title: t(request.moved_from ? 'shell.requestMovedTitle' : 'shell.newRequestTitle'),
          message: request.moved_from
            ? t('shell.requestMovedText', { patient: request.patient_name, when, from: f.whenPhrase(request.moved_from.start_at) })
            : t('shell.newRequestText', { patient: request.patient_name, when }),
          autoDismiss: false,
          key: requestToastKey(request.appointment_id),
          actions: [
            { label: t('shell.review'), primary: true, handler: () => go('/doctor-home') },
            { label: t('shell.dismiss'), handler: () => {} },
          ],
        });
      }),
      client.on('authenticationError', () => {
        // An erasure closed the account: the dialog saying so signs the user out, with no error over it.
        if (sessionStore.closedByUser) return;
        toasts.show({ type: 'error', title: words.current.t('shell.authenticationFailed'), duration: 5000 });
        setTimeout(() => {
          go('/');
          sessionStore.clear();
        }, LOGOUT_DELAY_MS);
      }),
      client.on('disconnected', (code) => {
        if (code !== 1000 && code !== 1001 && !(code >= 4001 && code <= 4005) && !sessionStore.closedByUser) {
          toasts.show({ type: 'warning', title: words.current.t('shell.connectionLost'), duration: 3000 });
        }
      }),
    ];
    client.connect();
    setClient(client);
    // The network is back (a phone out of a lift, a laptop woken): connect now rather than at the next back-off step.
    const online = () => client.reconnectNow();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      offs.forEach((off) => off());
      client.disconnect();
      setClient(null);
      setState('disconnected');
    };
  }, [userId, token, doctor, toasts, dismissRequest]);

  const value = useMemo(() => ({ state, requests, dismissRequest, client }), [state, requests, dismissRequest, client]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

const requestToastKey = (appointmentId: string) => `request:${appointmentId}`;
