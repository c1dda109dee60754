import { useState, type ReactNode } from 'react';
import { Alert, AlertTitle, Avatar, Box, Button, Card, CardContent, CircularProgress, LinearProgress, Stack, Typography } from '@mui/material';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import VideocamOffOutlined from '@mui/icons-material/VideocamOffOutlined';
import MicNoneOutlined from '@mui/icons-material/MicNoneOutlined';
import MicOffOutlined from '@mui/icons-material/MicOffOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import MedicalServicesOutlined from '@mui/icons-material/MedicalServicesOutlined';
import BugReportOutlined from '@mui/icons-material/BugReportOutlined';
import { useT, type MessageId } from '../../i18n/useT';
import type { ConnectionState } from '../../lib/realtime';
import { MediaVideo } from './MediaVideo';
import { initialsOf, isIphoneChrome } from './model';
import type { LocalMedia } from './useLocalMedia';
import type { AppointmentContext } from './appointmentContext';

export interface Diagnostics {
  secureContext: boolean;
  mediaDevices: boolean;
  peerConnection: boolean;
  socket: ConnectionState;
  /** Seed 001 §5: the session token has 3 dot-separated parts (only the verdict is shown, never the token). */
  tokenWellFormed: boolean;
}

const DEVICE_IDS = { camera: 'video.camera', microphone: 'video.microphone' } as const satisfies Record<string, MessageId>;

function Readiness({ ready, device, on, off }: { ready: boolean; device: keyof typeof DEVICE_IDS; on: ReactNode; off: ReactNode }) {
  const t = useT();
  return (
    <Stack sx={{ alignItems: 'center' }} direction="row" spacing={1} data-testid={`${device}-readiness`} data-ready={ready}>
      <Box sx={{ color: ready ? 'success.main' : 'error.main', display: 'flex' }}>{ready ? on : off}</Box>
      <Typography variant="body2">{t.rich(ready ? 'video.deviceReady' : 'video.deviceNotReady', { device: t(DEVICE_IDS[device]), strong: (chunks) => <strong>{chunks}</strong> })}</Typography>
    </Stack>
  );
}

/** Who is joining: initials, name and role. */
function LobbyHeader({ name, roleDisplayName }: { name: string; roleDisplayName: string }) {
  const t = useT();
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
      <Avatar sx={{ bgcolor: 'primary.main', width: 56, height: 56, fontSize: 22 }} aria-hidden>
        {initialsOf(name)}
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h5" component="h1" noWrap title={name}>
          {name}
        </Typography>
        <Typography color="text.secondary">{roleDisplayName}</Typography>
        <Typography variant="body2" color="success.main">
          {t('video.readyToConnect')}
        </Typography>
      </Box>
    </Stack>
  );
}

/** The device or connection problem, with the iPhone Chrome steps when the camera is blocked there. */
function ConnectionIssue({ error, onClose }: { error: string; onClose(): void }) {
  const t = useT();
  return (
    <Alert severity="error" onClose={onClose} sx={{ mb: 2 }} data-testid="connection-issue">
      <AlertTitle>{t('video.connectionIssue')}</AlertTitle>
      {error}
      {error.includes(t('video.iphoneBlocked')) && (
        <Box component="ol" sx={{ m: 0, mt: 1, pl: 2.5 }} aria-label={t('video.iphoneStepsLabel')}>
          <li>{t('video.iphoneStepLock')}</li>
          <li>{t('video.iphoneStepSiteSettings')}</li>
          <li>{t('video.iphoneStepEnable')}</li>
          <li>{t('video.iphoneStepRefresh')}</li>
          <li>{t('video.iphoneStepSafari')}</li>
        </Box>
      )}
    </Alert>
  );
}

/** The live preview, the camera and microphone readiness, the microphone level and the session's facts. */
function DevicePanel({ media }: { media: LocalMedia }) {
  const t = useT();
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2 }}>
      <Box sx={{ position: 'relative', borderRadius: 2, overflow: 'hidden', aspectRatio: '16 / 9', bgcolor: '#0d1716' }}>
        {media.stream && media.cameraReady ? (
          <MediaVideo stream={media.stream} muted mirrored label={t('video.cameraPreview')} testId="self-preview" />
        ) : (
          <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'grey.300' }}>
            {media.requesting ? <CircularProgress color="inherit" aria-label={t('video.askingForCamera')} /> : <VideocamOffOutlined fontSize="large" aria-label={t('video.cameraOff')} />}
          </Box>
        )}
      </Box>
      <Stack spacing={1.5}>
        <Readiness ready={media.cameraReady} device="camera" on={<VideocamOutlined />} off={<VideocamOffOutlined />} />
        <Readiness ready={media.microphoneReady} device="microphone" on={<MicNoneOutlined />} off={<MicOffOutlined />} />
        <Box>
          <Typography variant="caption" color="text.secondary" id="mic-level-label">
            {t('video.microphoneLevel')}
          </Typography>
          <LinearProgress variant="determinate" value={Math.round(media.level * 100)} aria-labelledby="mic-level-label" data-testid="mic-level" sx={{ height: 8, borderRadius: 4 }} />
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
          <Card variant="outlined">
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
              <MedicalServicesOutlined color="primary" fontSize="small" aria-hidden />
              <Typography variant="caption" color="text.secondary" component="p">
                {t('video.sessionTypeLabel')}
              </Typography>
              <Typography sx={{ fontWeight: 600 }} variant="body2">
                {t('video.sessionType')}
              </Typography>
            </CardContent>
          </Card>
          <Card variant="outlined">
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
              <LockOutlined color="primary" fontSize="small" aria-hidden />
              <Typography variant="caption" color="text.secondary" component="p">
                {t('video.securityLabel')}
              </Typography>
              <Typography sx={{ fontWeight: 600 }} variant="body2">
                {t('video.security')}
              </Typography>
            </CardContent>
          </Card>
        </Box>
      </Stack>
    </Box>
  );
}

/** What a user without camera or microphone can try: ask again, the iPhone ways, and the diagnostics' switch. */
function PermissionActions({ media, showDiagnostics, onToggleDiagnostics }: { media: LocalMedia; showDiagnostics: boolean; onToggleDiagnostics(): void }) {
  const t = useT();
  const iphoneChrome = isIphoneChrome(navigator.userAgent);
  const safariUrl = `x-safari-${window.location.href}`;
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
      <Button variant="outlined" onClick={media.retry}>
        {t('video.retryPermissions')}
      </Button>
      {iphoneChrome && (
        <Button variant="outlined" onClick={media.retryBasic}>
          {t('video.tryBasicIphoneMode')}
        </Button>
      )}
      {iphoneChrome && (
        <Button variant="outlined" href={safariUrl}>
          {t('video.openInSafari')}
        </Button>
      )}
      <Button onClick={onToggleDiagnostics} aria-expanded={showDiagnostics}>
        {t(showDiagnostics ? 'video.hideDiagnostics' : 'video.showDiagnostics')}
      </Button>
    </Stack>
  );
}

const SOCKET_STATE_IDS: Record<ConnectionState, MessageId> = {
  connected: 'video.socketConnected',
  connecting: 'video.socketConnecting',
  disconnected: 'video.socketDisconnected',
  error: 'video.socketError',
};

function DiagnosticsList({ diagnostics }: { diagnostics: Diagnostics }) {
  const t = useT();
  return (
    <Box component="dl" data-testid="diagnostics" sx={{ mt: 1, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, fontSize: 14 }}>
      <dt>{t('video.diagSecurePage')}</dt>
      <dd style={{ margin: 0 }}>{t(diagnostics.secureContext ? 'video.yes' : 'video.no')}</dd>
      <dt>{t('video.diagMediaApi')}</dt>
      <dd style={{ margin: 0 }}>{t(diagnostics.mediaDevices ? 'video.available' : 'video.missing')}</dd>
      <dt>WebRTC</dt>
      <dd style={{ margin: 0 }}>{t(diagnostics.peerConnection ? 'video.available' : 'video.missing')}</dd>
      <dt>{t('video.diagSocket')}</dt>
      <dd style={{ margin: 0 }}>{t(SOCKET_STATE_IDS[diagnostics.socket])}</dd>
      <dt>{t('video.diagToken')}</dt>
      <dd style={{ margin: 0 }}>{t(diagnostics.tokenWellFormed ? 'video.tokenWellFormed' : 'video.tokenMalformed')}</dd>
    </Box>
  );
}

interface LobbyProps {
  name: string;
  roleDisplayName: string;
  media: LocalMedia;
  joining: boolean;
  /** A patient's doctor is not in the call yet: the patient may start anyway and wait for them inside. */
  waitingForDoctor: boolean;
  /** What to say when the other participant is in their lobby too (null: they are not). */
  otherInLobby: string | null;
  /** The other participant's name when they are in the call already (null: they are not), so Start Consultation joins them. */
  otherInCall?: string | null;
  error: string | null;
  onClearError(): void;
  onStart(): void;
  onDebug(): void;
  diagnostics: Diagnostics;
  /** With whom and when (null while unknown): a new patient or doctor sees which consultation this lobby is for. */
  appointment?: AppointmentContext | null;
}

/** Seed 001 §2 lobby: who is joining, the devices' readiness with a live preview, and Start Consultation. */
export function Lobby(props: LobbyProps) {
  const t = useT();
  const { media } = props;
  const [showDiagnostics, setShowDiagnostics] = useState(false);
  const ready = media.cameraReady && media.microphoneReady;
  const error = props.error ?? media.error;
  const clearError = () => {
    props.onClearError();
    media.clearError();
  };
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }} data-testid="video-lobby">
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <LobbyHeader name={props.name} roleDisplayName={props.roleDisplayName} />
          {props.appointment && (
            <Typography sx={{ mb: 2, overflowWrap: 'anywhere' }} data-testid="lobby-appointment">
              {t.rich('video.consultationWith', { name: props.appointment.otherName, when: props.appointment.when, strong: (chunks) => <strong>{chunks}</strong> })}
            </Typography>
          )}

          {error && <ConnectionIssue error={error} onClose={clearError} />}

          <DevicePanel media={media} />

          {!ready && !media.requesting && <PermissionActions media={media} showDiagnostics={showDiagnostics} onToggleDiagnostics={() => setShowDiagnostics((v) => !v)} />}
          {showDiagnostics && !ready && <DiagnosticsList diagnostics={props.diagnostics} />}

          {!ready && !media.requesting && (
            <Typography color="error" sx={{ mt: 2 }} role="status">
              {t('video.permissionsNeeded')}
            </Typography>
          )}
          {props.otherInCall && (
            <Alert severity="success" sx={{ mt: 2 }} data-testid="other-in-call" role="status">
              {t('video.otherInCall', { name: props.otherInCall })}
            </Alert>
          )}
          {props.otherInLobby && !props.otherInCall && (
            <Alert severity="success" sx={{ mt: 2 }} data-testid="other-in-lobby" role="status">
              {props.otherInLobby}
            </Alert>
          )}
          {props.waitingForDoctor && ready && !props.otherInLobby && (
            <Alert severity="info" sx={{ mt: 2 }} data-testid="waiting-for-doctor" role="status">
              {t('video.doctorNotJoinedYet')}
            </Alert>
          )}

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { xs: 'stretch', sm: 'center' }, mt: 3 }}>
            <Button variant="contained" size="large" onClick={props.onStart} disabled={props.joining || !ready} startIcon={props.joining ? <CircularProgress size={18} color="inherit" aria-hidden /> : <VideocamOutlined />}>
              {t(props.joining ? 'video.connectingSecurely' : 'video.startConsultation')}
            </Button>
            <Button onClick={props.onDebug} startIcon={<BugReportOutlined />}>
              {t('video.debugConsole')}
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            {t('video.note')}
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
