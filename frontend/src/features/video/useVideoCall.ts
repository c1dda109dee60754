import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useLanguage } from '../../i18n/I18nProvider';
import { useT } from '../../i18n/useT';
import { ApiError } from '../../lib/api';
import { isDoctor, useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { browserZone } from '../../lib/time';
import { useRealtime } from '../../app/RealtimeProvider';
import { consultationApi, type ConsultationView, type JoinConsultationResponse } from './api';
import { CONSULTATION_SUMMARY_DELAY_MS, buildSummary, clockOffset, inLocalTime } from './model';
import { useAppointmentContext } from './appointmentContext';
import { useLocalMedia, type LocalMedia } from './useLocalMedia';
import { CallSetupError, useCallConnection } from './useCallConnection';
import { useCallPhase, type PhaseEvent } from './useCallPhase';
import { useCallSignalling } from './useCallSignalling';
import { useCallClock, useCallPolling } from './useCallTimers';
import { messageOf, useChatMessages, useConsultationRecord } from './useConsultation';
import { useDebugLog, type CallLog } from './useDebugLog';

/** Seed 001 §4: the near-limit warning shows once; its dismissal outlives a reload of the page. */
function useWarningDismissal(appointmentId: string) {
  const key = `consultation-warning-dismissed:${appointmentId}`;
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(key) === '1');
  const dismiss = () => {
    setDismissed(true);
    sessionStorage.setItem(key, '1');
  };
  return { dismissed, dismiss };
}

/** Reads the consultation once per appointment as the page opens; `onEnded` when it had ended already. */
function useOpening({ appointmentId, critical, log, refresh, onEnded }: { appointmentId: string; critical(failure: string): void; log: CallLog; refresh(): Promise<ConsultationView | null>; onEnded(view: ConsultationView): void }) {
  const t = useT();
  useEffect(() => {
    if (!appointmentId) {
      critical(t('video.noAppointment'));
      return;
    }
    log('info', 'Video call page opened', { provider_check: 'pending' });
    void refresh().then((view) => {
      if (view?.status === 'ended') onEnded(view);
    });
    // Runs once per appointment (`me` and the callbacks do not change the answer).
  }, [appointmentId]);
}

/**
 * `finish`: the consultation ended (here, by the other side, or at its limit), once per join (`finishing` is cleared
 * by the next one): the connection and the camera stop, and after a moment the summary shows from the server's record.
 */
function useFinish({ hangUp, mediaRef, dispatch, log, refresh, me }: { hangUp(): void; mediaRef: RefObject<LocalMedia>; dispatch(event: PhaseEvent): void; log: CallLog; refresh(): Promise<ConsultationView | null>; me: { id: string; name: string; role: string } }) {
  const finishing = useRef(false);
  const finish = useCallback(
    (autoEnded: boolean) => {
      if (finishing.current) return;
      finishing.current = true;
      hangUp();
      mediaRef.current.stop();
      dispatch({ type: 'ended' });
      log('info', autoEnded ? 'The consultation ended at its time limit' : 'The consultation ended');
      const record = refresh();
      setTimeout(() => {
        dispatch({ type: 'summaryDue' });
        void record.then((view) => dispatch({ type: 'summaryRead', summary: buildSummary({ record: view, me, autoEnded, timeZone: browserZone() }) }));
      }, CONSULTATION_SUMMARY_DELAY_MS);
    },
    [log, me, refresh, hangUp, mediaRef, dispatch],
  );
  return { finish, finishing };
}

/** How the page words a failed join or connection, in the chosen language. */
function useFailureWords() {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const english = useLanguage().language === 'en';
  /** Why a join or a connection failed: this page's own reasons by their id; in English the error's own words (as before), else the server's refusal by its code. */
  const reasonOf = (error: unknown): string => {
    if (error instanceof CallSetupError) return t(error.id);
    if (english) return messageOf(error) || t('video.unknownError');
    return explain(error, 'video.unknownError');
  };
  /**
   * The server's own words for a window not open yet or an ended call (409), its times in the person's own: in
   * English the seeds' detail with its instant in words; in another language the refusal by its code, the opening
   * time in that language's words.
   */
  const refusal = (error: ApiError): string => {
    if (english) return inLocalTime(error.detail);
    const [opensAt, minutes] = error.values;
    if (error.code === 'not_open_yet' && opensAt && minutes) return t('video.notOpenYet', { when: f.whenPhrase(opensAt), minutes: Number(minutes) });
    return explain(error, 'video.unknownError');
  };
  return { reasonOf, refusal };
}

/**
 * Everything the video call page shows and does for `/video-call?appointment_id=…`: who this person is, the phase,
 * the consultation's record and chat, the connection, the socket's side, and the page's own actions.
 */
export function useVideoCall() {
  const [params] = useSearchParams();
  const appointmentId = params.get('appointment_id') ?? '';
  const t = useT();
  const explain = useErrorText();
  // What callbacks kept across renders say, in the language chosen when they say it (t is new at every render).
  const words = useRef({ t, explain });
  words.current = { t, explain };
  const session = useSession();
  const user = session?.user;
  const you = t('video.you');
  const me = useMemo(() => ({ id: user?.user_id ?? user?.id ?? '', name: user?.name ?? you, role: user?.account_type === 'doctor' ? 'DOCTOR' : 'USER' }), [user, you]);
  const doctor = isDoctor(user);
  const { client, state: socketState } = useRealtime();
  const navigate = useNavigate();
  const toasts = useToasts();
  const debug = useDebugLog();
  const { log } = debug;
  const media = useLocalMedia(log);
  // The media object is new at every render; what ends the call reads it through a ref so it stays stable.
  const mediaRef = useRef(media);
  mediaRef.current = media;
  const { state, phase, phaseRef, dispatch } = useCallPhase();
  const [pageError, setPageError] = useState<string | null>(null);
  const [lobbyError, setLobbyError] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const [ending, setEnding] = useState(false);
  const warning = useWarningDismissal(appointmentId);
  // With whom and when: the lobby says it, and the call names the other side before they have joined.
  const appointment = useAppointmentContext(appointmentId);

  /** A critical error (in words, or the server's refusal): said, then back to the appointments (seed 001 §8). */
  const critical = useCallback(
    (failure: string | ApiError) => {
      const { t, explain } = words.current;
      const message = typeof failure === 'string' ? failure : explain(failure, 'video.unknownError');
      toasts.show({ type: 'error', title: t('video.pageError', { message }), duration: 8000 });
      navigate('/my-appointments', { replace: true });
    },
    [navigate, toasts],
  );
  const { consultation, refresh } = useConsultationRecord(appointmentId, critical, log);
  const { messages, loadMessages } = useChatMessages(appointmentId, log);
  const call = useCallConnection({ appointmentId, doctor, inCall: phase === 'call', token: session?.token ?? null, log, onError: setPageError });

  // The consultation as it stands when the page opens: an ended one goes straight to its summary.
  useOpening({ appointmentId, critical, log, refresh, onEnded: (view) => dispatch({ type: 'openedEnded', summary: buildSummary({ record: view, me, autoEnded: view.auto_ended, timeZone: browserZone() }) }) });
  const { hangUp, stepBack, rejoined } = call;
  const { finish, finishing } = useFinish({ hangUp, mediaRef, dispatch, log, refresh, me });
  const onReplaced = useCallback(() => {
    stepBack();
    dispatch({ type: 'replaced' });
    setLobbyError(words.current.t('video.replacedElsewhere'));
  }, [stepBack, dispatch]);

  const signalling = useCallSignalling({ client, appointmentId, me, doctor, phase, phaseRef, consultation, joined: call.joined, joinedRef: call.joinedRef, connection: call.connection, log, refresh, finish, loadMessages, onReplaced, onRejoined: rejoined });
  const { clock, restart: restartClock } = useCallClock(phase, call.joined);
  const waitingForDoctor = !doctor && !signalling.doctorPresent && consultation?.status !== 'ended';
  useCallPolling({ phase, socketState, waitingForDoctor, over: Boolean(clock?.over) && phase === 'call', refresh, finish, loadMessages });

  const { reasonOf, refusal } = useFailureWords();

  const start = async () => {
    if (!media.stream || !media.cameraReady || !media.microphoneReady) {
      setLobbyError(t('video.permissionsNeeded'));
      return;
    }
    setJoining(true);
    signalling.resetJoinSeen();
    call.prepare();
    setLobbyError(null);
    const sentAt = Date.now();
    let answer: JoinConsultationResponse;
    try {
      answer = await consultationApi.join(appointmentId);
    } catch (error) {
      setJoining(false);
      if (error instanceof ApiError && error.status === 404) return critical(error);
      setLobbyError(error instanceof ApiError && error.status === 409 ? refusal(error) : t('video.joinFailure', { reason: reasonOf(error) }));
      log('error', 'Join refused', { status: error instanceof ApiError ? error.status : null });
      return;
    }
    const offset = clockOffset(answer.server_time, sentAt, Date.now());
    // Connection facts only: never the token or the TURN credentials.
    log('info', 'Joined the consultation', { provider: answer.provider, room: answer.room, started_at: answer.started_at, ends_at: answer.ends_at, ice_servers: answer.ice_servers.length, clock_offset_ms: Math.round(offset) });
    finishing.current = false;
    call.setJoined({ ...answer, offset });
    restartClock();
    const view = await refresh();
    const otherPresent = Boolean(view?.participants.some((p) => p.user_id !== me.id && p.present));
    try {
      await call.connect({ answer: { ...answer, offset }, localStream: media.stream, transport: signalling.transport, otherPresent });
      dispatch({ type: 'entered' });
      void loadMessages();
    } catch (error) {
      call.setStatus('disconnected');
      setPageError(t('video.roomError', { reason: reasonOf(error) }));
      log('error', 'Could not connect the call', { error: messageOf(error) });
    } finally {
      setJoining(false);
    }
  };

  const endCall = async () => {
    setEnding(true);
    try {
      await consultationApi.end(appointmentId);
    } catch (error) {
      // Already ended (by the other side or the limit): the summary says how.
      log('warn', 'End Call answered', { error: messageOf(error) });
    } finally {
      setEnding(false);
    }
    finish(false);
  };

  return {
    appointmentId,
    me,
    doctor,
    session,
    socketState,
    debug,
    media,
    state,
    consultation,
    appointment,
    messages,
    loadMessages,
    call,
    clock,
    warning,
    waitingForDoctor,
    otherInLobby: signalling.otherInLobby,
    joining,
    ending,
    pageError,
    setPageError,
    lobbyError,
    setLobbyError,
    start,
    endCall,
    goHome: () => navigate(doctor ? '/doctor-home' : '/home'),
    copied: (ok: boolean) => toasts.show({ type: ok ? 'success' : 'error', title: t(ok ? 'video.logCopied' : 'video.logNotCopied'), duration: 3000 }),
  };
}

export type VideoCall = ReturnType<typeof useVideoCall>;
