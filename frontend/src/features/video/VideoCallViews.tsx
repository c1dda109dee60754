import { useT } from '../../i18n/useT';
import { consultationApi } from './api';
import { CallView, type CallViewProps } from './CallView';
import { Chat } from './Chat';
import { Lobby } from './Lobby';
import { roleDisplayName, roleDisplayText } from './model';
import type { VideoCall } from './useVideoCall';

/** The other participant as the server's record has them (undefined before they have joined). */
const otherOf = (vc: VideoCall) => vc.consultation?.participants.find((p) => p.user_id !== vc.me.id);

/** The lobby of the consultation (seed 001 §2), with what the page knows of the other participant and the connection. */
export function LobbyStage({ vc, onDebug }: { vc: VideoCall; onDebug(): void }) {
  const t = useT();
  const { me, consultation, appointment } = vc;
  const other = otherOf(vc);
  const remotePresent = Boolean(other?.present);
  const tokenWellFormed = (vc.session?.token.split('.').length ?? 0) === 3;
  return (
    <Lobby
      name={me.name}
      roleDisplayName={roleDisplayText(t, roleDisplayName(me.role))}
      media={vc.media}
      joining={vc.joining}
      waitingForDoctor={vc.waitingForDoctor && consultation !== null}
      otherInLobby={vc.otherInLobby ? t(me.role === 'DOCTOR' ? 'video.patientInLobby' : 'video.doctorInLobby') : null}
      otherInCall={remotePresent && consultation?.status !== 'ended' ? (other?.name ?? appointment?.otherName ?? null) : null}
      error={vc.lobbyError}
      onClearError={() => vc.setLobbyError(null)}
      onStart={() => void vc.start()}
      onDebug={onDebug}
      appointment={appointment}
      diagnostics={{
        secureContext: window.isSecureContext,
        mediaDevices: Boolean(navigator.mediaDevices?.getUserMedia),
        peerConnection: typeof RTCPeerConnection !== 'undefined',
        socket: vc.socketState,
        tokenWellFormed,
      }}
    />
  );
}

/**
 * The call, and the moments of leaving it (its controls disabled), whichever provider carries it: LiveKit's view adds
 * its room's state and media, peer to peer's the connection's.
 */
export function CallStage({ vc, onSettings }: { vc: VideoCall; onSettings(): void }) {
  const t = useT();
  const { me, appointment, call, clock } = vc;
  const phase = vc.state.phase;
  const other = otherOf(vc);
  const callView: Omit<CallViewProps, 'status' | 'localStream' | 'remote' | 'poorQuality'> = {
    clock,
    showWarning: Boolean(clock?.nearLimit) && !vc.warning.dismissed && phase === 'call',
    onDismissWarning: vc.warning.dismiss,
    localName: me.name,
    ...call.switches,
    remoteName: other?.name ?? appointment?.otherName ?? t('video.roleParticipant'),
    waitingFor: other?.name ?? appointment?.otherName ?? t(vc.doctor ? 'video.thePatient' : 'video.theDoctor'),
    remotePresent: Boolean(other?.present),
    remoteLeft: other !== undefined && !other.present,
    onToggleMicrophone: () => call.toggle('microphone'),
    onToggleCamera: () => call.toggle('camera'),
    onToggleAudioOnly: () => call.toggle('audioOnly'),
    onSettings,
    onEnd: () => void vc.endCall(),
    ending: vc.ending || phase === 'leaving',
    chat: (
      <Chat
        messages={vc.messages}
        meId={me.id}
        disabled={phase !== 'call'}
        onSend={async (text) => {
          await consultationApi.send(vc.appointmentId, text);
          await vc.loadMessages();
        }}
      />
    ),
  };
  const liveKit = call.liveKit;
  return liveKit ? <liveKit.View {...callView} room={liveKit.room} log={vc.debug.log} /> : <CallView {...callView} status={call.status} localStream={vc.media.stream} remote={call.remote} poorQuality={call.poorQuality} />;
}
