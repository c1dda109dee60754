import { useState, useRef, type CSSProperties, type ReactNode } from 'react';
import { Alert, Avatar, Box, Button, CircularProgress, FormControlLabel, IconButton, Paper, Stack, Switch, Typography } from '@mui/material';
import MicNoneOutlined from '@mui/icons-material/MicNoneOutlined';
import MicOffOutlined from '@mui/icons-material/MicOffOutlined';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import VideocamOffOutlined from '@mui/icons-material/VideocamOffOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import CallEndOutlined from '@mui/icons-material/CallEndOutlined';
import { useT } from '../../i18n/useT';
import { MediaVideo, type OnPlaybackBlocked } from './MediaVideo';
import { CALL_STATUS_IDS, formatDuration, initialsOf, remainingText, type CallClock, type CallStatus } from './model';
import type { RemoteMedia } from './connection';
import { DoctorCallPanel } from '../records/DoctorCallPanel';
import { MiniRemote, useScrolledAway } from './MiniRemote';

const STATUS_COLOR: Record<CallStatus, string> = { connecting: 'warning.main', connected: 'success.main', reconnecting: 'warning.main', disconnected: 'error.main' };

/** What a video element of the call is given: the tile (or the small picture) decides its look and its name. */
export interface VideoSlotProps {
  testId: string;
  label: string;
  /** The element plays no sound (the local picture, the small copy of the other side's). */
  muted: boolean;
  mirrored: boolean;
  style: CSSProperties;
}

/**
 * A participant's video element, or null while no media of theirs arrives: made from a MediaStream (peer to peer), or
 * LiveKit's VideoTrack (whose sound the room's audio renderer plays).
 */
export type VideoSlot = (props: VideoSlotProps) => ReactNode;

/** `onPlaybackBlocked` hears about the element that plays sound (the others are muted: the browser always plays them). */
function streamSlot(stream: MediaStream | null, onPlaybackBlocked?: OnPlaybackBlocked): VideoSlot | null {
  return stream && ((s) => <MediaVideo stream={stream} muted={s.muted} mirrored={s.mirrored} label={s.label} testId={s.testId} style={s.style} onPlaybackBlocked={s.muted ? undefined : onPlaybackBlocked} />);
}

function Tile(props: { name: string; slot: VideoSlot | null; video: boolean; audio: boolean; local: boolean; testId: string; small?: boolean; interrupted?: boolean }) {
  const t = useT();
  // An interrupted connection's video is its last frame, frozen: the initials stand in for it until media flows again.
  const showVideo = Boolean(props.slot) && props.video && !props.interrupted;
  return (
    <Box
      data-testid={props.testId}
      data-video={props.video}
      data-audio={props.audio}
      sx={{ position: 'relative', borderRadius: 2, overflow: 'hidden', bgcolor: '#0d1716', aspectRatio: props.small ? '4 / 3' : { xs: '4 / 3', sm: '16 / 9' }, width: '100%', height: '100%' }}
    >
      {/* Kept mounted while the camera is off so that the other side's audio keeps playing. */}
      {props.slot?.({ muted: props.local, mirrored: props.local, label: props.local ? t('video.yourVideo') : t('video.theirVideo', { name: props.name }), testId: `${props.testId}-video`, style: { opacity: showVideo ? 1 : 0, position: 'absolute', inset: 0 } })}
      {!showVideo && (
        <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
          <Stack sx={{ alignItems: 'center' }} spacing={1}>
            <Avatar sx={{ width: props.small ? 48 : 88, height: props.small ? 48 : 88, fontSize: props.small ? 18 : 32, bgcolor: 'primary.main' }} aria-hidden>
              {initialsOf(props.name)}
            </Avatar>
            {props.slot && !props.interrupted && (
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'grey.300' }} data-testid={`${props.testId}-video-off`}>
                <VideocamOffOutlined fontSize="small" aria-hidden />
                <Typography variant="caption">{t('video.videoOff')}</Typography>
              </Stack>
            )}
          </Stack>
        </Box>
      )}
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', position: 'absolute', left: 8, bottom: 8, right: 8, color: 'common.white' }}>
        <Typography variant="caption" title={props.name} sx={{ display: 'flex', minWidth: 0, bgcolor: 'rgba(0,0,0,0.55)', px: 1, py: 0.25, borderRadius: 1, maxWidth: '100%' }}>
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {props.name}
          </Box>
          {props.local && (
            <Box component="span" sx={{ flexShrink: 0, whiteSpace: 'pre' }}>
              {` ${t('video.youTag')}`}
            </Box>
          )}
        </Typography>
        {!props.audio && (
          <Box component="span" role="img" aria-label={props.local ? t('video.yourMicrophoneMuted') : t('video.theyAreMuted', { name: props.name })} data-testid={`${props.testId}-muted`} sx={{ display: 'flex', bgcolor: 'error.main', borderRadius: '50%', p: 0.25 }}>
            <MicOffOutlined sx={{ fontSize: 16 }} aria-hidden />
          </Box>
        )}
      </Stack>
    </Box>
  );
}

/** A call control: its icon with its name under it (the name is also the button's accessible name). */
function Control(props: { label: string; icon: ReactNode; onClick(): void; danger?: boolean; disabled?: boolean }) {
  return (
    <Stack sx={{ alignItems: 'center', minWidth: 64 }}>
      <IconButton onClick={props.onClick} aria-label={props.label} color={props.danger ? 'error' : 'default'} disabled={props.disabled} sx={{ bgcolor: props.danger ? 'error.main' : 'grey.100', '&:hover': { bgcolor: props.danger ? 'error.dark' : 'grey.200' }, color: props.danger ? 'common.white' : undefined }}>
        {props.icon}
      </IconButton>
      <Typography variant="caption" aria-hidden sx={{ mt: 0.25, whiteSpace: 'nowrap' }}>
        {props.label}
      </Typography>
    </Stack>
  );
}

export interface CallViewProps {
  status: CallStatus;
  clock: CallClock | null;
  showWarning: boolean;
  onDismissWarning(): void;
  localName: string;
  localStream: MediaStream | null;
  microphone: boolean;
  camera: boolean;
  audioOnly: boolean;
  remoteName: string;
  /** Who the call waits for, in words ('the doctor' before their name is known). */
  waitingFor: string;
  remotePresent: boolean;
  /** The other participant was in the call and left it (or the server recorded them as gone): not 'to join' but 'again'. */
  remoteLeft?: boolean;
  remote: RemoteMedia;
  poorQuality: boolean;
  onToggleMicrophone(): void;
  onToggleCamera(): void;
  onToggleAudioOnly(): void;
  onSettings(): void;
  onEnd(): void;
  ending: boolean;
  chat: ReactNode;
  /**
   * The tiles' video elements when a provider makes them itself (LiveKit's components); otherwise they show
   * `localStream` and `remote.stream`. A non-null remote slot means the other side's media arrives.
   */
  videos?: { local: VideoSlot | null; remote: VideoSlot | null };
  /**
   * With `videos`: whether the browser refuses to play the other side's sound (autoplay policy), and what starts it
   * from a click. Without, the view finds out from its own video element.
   */
  audioPlayback?: { blocked: boolean; start(): void };
}

/** Seed 001 §2 call view: the warning, the header, the tiles, the controls, and the chat beside them. */
export function CallView(p: CallViewProps) {
  const t = useT();
  const participants = p.remotePresent ? 2 : 1;
  // The other side's element the browser would not play: played again from the click on 'Click to enable audio'.
  const [blockedPlay, setBlockedPlay] = useState<(() => Promise<void>) | null>(null);
  const localSlot = p.videos ? p.videos.local : streamSlot(p.localStream);
  const remoteSlot = p.videos ? p.videos.remote : streamSlot(p.remote.stream, (play) => setBlockedPlay(() => play));
  const audioPlayback = p.videos
    ? p.audioPlayback
    : {
        blocked: blockedPlay !== null,
        start: () => void blockedPlay?.().then(() => setBlockedPlay(null), () => {}),
      };
  const remoteShown = p.remotePresent || remoteSlot !== null;
  const remoteTile = useRef<HTMLDivElement>(null);
  const scrolledAway = useScrolledAway(remoteTile, remoteShown && remoteSlot !== null);
  const miniShown = scrolledAway && remoteSlot !== null && p.remote.video && p.status !== 'reconnecting';
  return (
    <Box data-testid="call-view">
      {p.showWarning && p.clock && (
        <Alert severity="warning" onClose={p.onDismissWarning} sx={{ mb: 1.5 }} data-testid="time-warning">
          {t('video.timeWarning', { remaining: remainingText(t, p.clock.remaining) })}
        </Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1.5, flexWrap: 'wrap', rowGap: 0.5 }} component="header">
        <Stack sx={{ alignItems: 'center' }} direction="row" spacing={1} role="status" data-testid="call-status" data-status={p.status}>
          <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: STATUS_COLOR[p.status] }} />
          <Typography sx={{ fontWeight: 600 }} variant="body2">
            {t(CALL_STATUS_IDS[p.status])}
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="call-duration" aria-label={t('video.callDuration')}>
          {formatDuration(p.clock?.elapsed ?? 0)}
          {p.clock?.nearLimit && (
            <Box component="span" sx={{ color: 'warning.main', ml: 0.5 }} data-testid="call-remaining">
              {t('video.timeLeft', { remaining: formatDuration(p.clock.remaining) })}
            </Box>
          )}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="participant-count">
          {t('video.participantCount', { count: participants })}
        </Typography>
      </Stack>

      {audioPlayback?.blocked && (
        <Alert
          severity="warning"
          sx={{ mb: 1.5 }}
          data-testid="audio-blocked"
          action={
            <Button variant="contained" color="warning" onClick={audioPlayback.start}>
              {t('video.enableAudio')}
            </Button>
          }
        >
          {t('video.audioBlocked')}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) 320px' }, gap: 2, alignItems: 'stretch' }}>
        <Box sx={{ minWidth: 0 }}>
          {remoteShown ? (
            <Box sx={{ position: 'relative' }} data-layout="multi" ref={remoteTile}>
              <Tile name={p.remoteName} slot={remoteSlot} video={p.remote.video} audio={p.remote.audio} local={false} testId="remote-tile" interrupted={p.status === 'reconnecting'} />
              <Box sx={{ position: 'absolute', right: 8, top: 8, width: { xs: 104, sm: 200 }, boxShadow: 3, borderRadius: 2 }}>
                <Tile name={p.localName} slot={localSlot} video={p.camera && !p.audioOnly} audio={p.microphone} local testId="local-tile" small />
              </Box>
              {!remoteSlot && (
                <Typography sx={{ position: 'absolute', top: 12, left: 12, color: 'common.white', bgcolor: 'rgba(0,0,0,0.55)', px: 1, borderRadius: 1 }} variant="body2" role="status">
                  {t('video.connectingTo', { name: p.remoteName })}
                </Typography>
              )}
              {remoteSlot && p.status === 'reconnecting' && (
                <Typography sx={{ position: 'absolute', top: 12, left: 12, color: 'common.white', bgcolor: 'rgba(0,0,0,0.55)', px: 1, borderRadius: 1 }} variant="body2" role="status" data-testid="remote-reconnecting">
                  {t('video.connectionInterrupted', { name: p.remoteName })}
                </Typography>
              )}
            </Box>
          ) : (
            <Box sx={{ position: 'relative' }} data-layout="single">
              <Tile name={p.localName} slot={localSlot} video={p.camera && !p.audioOnly} audio={p.microphone} local testId="local-tile" />
              {/* Over this side's own picture, not a black tile: nobody else is in the call yet. */}
              <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', p: 1.5, pointerEvents: 'none' }}>
                <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', color: 'common.white', bgcolor: 'rgba(0,0,0,0.62)', borderRadius: 2, px: { xs: 2, sm: 3 }, py: { xs: 1.5, sm: 2 }, maxWidth: 420 }} data-testid="waiting-state">
                  <CircularProgress size={28} color="inherit" aria-hidden />
                  <Typography sx={{ fontWeight: 600, fontSize: { xs: '1rem', sm: '1.15rem' }, overflowWrap: 'anywhere' }} role="status" data-testid="waiting-for-other">
                    {t(p.remoteLeft ? 'video.otherLeftCall' : 'video.waitingInCall', { name: p.waitingFor })}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'grey.300' }}>
                    {t('video.waitingInCallHint')}
                  </Typography>
                </Stack>
              </Box>
            </Box>
          )}

          {p.poorQuality && !p.audioOnly && (
            <Alert severity="info" sx={{ mt: 1.5 }} action={<Button onClick={p.onToggleAudioOnly}>{t('video.switchToAudioOnly')}</Button>}>
              {t('video.weakConnection')}
            </Alert>
          )}

          <Paper variant="outlined" sx={{ mt: 1.5, p: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', gap: { xs: 0.5, sm: 1.5 }, flexWrap: 'wrap' }} role="toolbar" aria-label={t('video.callControls')}>
            <Control label={t(p.microphone ? 'video.mute' : 'video.unmute')} danger={!p.microphone} onClick={p.onToggleMicrophone} icon={p.microphone ? <MicNoneOutlined /> : <MicOffOutlined />} />
            <Control label={t(p.camera ? 'video.stopVideo' : 'video.startVideo')} danger={!p.camera} onClick={p.onToggleCamera} disabled={p.audioOnly} icon={p.camera ? <VideocamOutlined /> : <VideocamOffOutlined />} />
            <Control label={t('video.settings')} onClick={p.onSettings} icon={<SettingsOutlined />} />
            <FormControlLabel control={<Switch checked={p.audioOnly} onChange={p.onToggleAudioOnly} />} label={t('video.audioOnly')} sx={{ mx: 0.5 }} />
            <Button variant="contained" color="error" onClick={p.onEnd} disabled={p.ending} title={t('video.endTitle')} aria-label={t('video.endCall')} startIcon={<CallEndOutlined />}>
              {t('video.endCall')}
            </Button>
          </Paper>
        </Box>
        <Box sx={{ minHeight: 0, height: { md: '100%' }, maxHeight: { md: 640 } }}>{p.chat}</Box>
      </Box>
      <DoctorCallPanel />
      {miniShown && remoteSlot && (
        <MiniRemote
          name={p.remoteName}
          video={remoteSlot({ muted: true, mirrored: false, label: t('video.theirVideoSmall', { name: p.remoteName }), testId: 'mini-remote-video', style: { position: 'absolute', inset: 0 } })}
          onBack={() => remoteTile.current?.scrollIntoView?.({ behavior: 'smooth', block: 'center' })}
        />
      )}
    </Box>
  );
}
