import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { RealtimeClient, type ConnectionState } from '../lib/realtime';
import { call } from '../lib/client';
import { isDoctor, sessionStore, useSession } from '../lib/session';
import { useToasts } from '../lib/toasts';
import { useFormat } from '../i18n/format';
import { useT } from '../i18n/useT';
import { invalidateQueries } from '../lib/queryInvalidation';

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
        const { t, f } = words.current;
        const when = f.whenPhrase(data.start_at as string | undefined);
        const patient = String(data.patient_name ?? t('shell.thePatient'));
        const doctorName = String(data.doctor_name ?? t('shell.theDoctor'));
        if (doctor) dismissRequest(String(data.appointment_id));
        if (status === 'approved') {
          toasts.show({
            type: 'success',
            title: t('shell.approvedTitle'),
            message: t('shell.approvedText', { doctor: String(data.doctor_name ?? t('shell.yourDoctor')), when }),
            duration: 8000,
            actions: [{ label: t('shell.viewAppointments'), primary: true, handler: () => go('/my-appointments') }],
          });
        } else if (status === 'rejected' && data.status_reason === 'consent_withdrawn') {
          // Closed by the system when the patient withdrew consent: nobody declined anything.
          const message = doctor ? t('shell.requestWithdrawnForDoctor', { patient, when }) : t('shell.requestWithdrawnForPatient', { doctor: doctorName, when });
          toasts.show({ type: 'info', title: t('shell.requestWithdrawnTitle'), message, duration: 8000 });
        } else if (status === 'rejected') {
          toasts.show({
            type: 'error',
            title: t('shell.declinedTitle'),
            message: data.rejection_reason
              ? t('shell.declinedTextWithReason', { doctor: doctorName, when, reason: String(data.rejection_reason) })
              : t('shell.declinedText', { doctor: doctorName, when }),
            duration: 10_000,
            actions: [{ label: t('shell.bookAnother'), primary: true, handler: () => go('/home') }],
          });
        } else if (status === 'cancelled') {
          const ownAction = data.cancelled_by === (doctor ? 'doctor' : 'patient');
          if (ownAction) return; // the page that cancelled has said so already
          const message = doctor ? t('shell.cancelledByPatient', { patient, when }) : t('shell.cancelledByDoctor', { doctor: doctorName, when });
          toasts.show({ type: 'info', title: t('shell.cancelledTitle'), message, duration: 5000 });
        } else if (status === 'expired') {
          const message = doctor ? t('shell.requestExpiredForDoctor', { patient, when }) : t('shell.requestExpiredForPatient', { doctor: doctorName, when });
          toasts.show({ type: 'info', title: t('shell.requestExpiredTitle'), message, duration: 5000 });
        } else if (status === 'moved') {
          // A move that kept it confirmed: told to the doctor (the patient made it).
          if (!doctor) return;
          toasts.show({ type: 'info', title: t('shell.movedTitle'), message: t('shell.movedForDoctor', { patient, when }), duration: 8000 });
        } else if (status === 'no_show') {
          // The doctor who marked the patient absent has seen it on their own page.
          if (doctor && data.absent === 'patient') return;
          const message = doctor
            ? t('shell.noShowForDoctor', { patient, when })
            : data.absent === 'patient'
              ? t('shell.noShowPatientAbsent', { doctor: doctorName, when })
              : t('shell.noShowDoctorAbsent', { doctor: doctorName, when });
          toasts.show({ type: 'info', title: t('shell.noShowTitle'), message, duration: 10_000 });
        } else if (status === 'times_proposed') {
          // The doctor who offered them has seen it on their own page; the patient is asked to answer.
          if (doctor) return;
          toasts.show({
            type: 'appointment',
            title: t('shell.timesProposedTitle'),
            message: t('shell.timesProposedText', { doctor: doctorName, when }),
            duration: 15_000,
            actions: [{ label: t('shell.viewAppointments'), primary: true, handler: () => go('/my-appointments') }],
          });
        } else {
          toasts.show({ type: 'info', title: t('shell.updateTitle'), message: t('shell.updateText', { when, status }), duration: 5000 });
        }
      }),
      client.on('scheduleUpdate', () => invalidateQueries()),
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
