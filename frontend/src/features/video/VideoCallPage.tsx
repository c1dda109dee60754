import { useRef, useState } from 'react';
import { Alert, Box } from '@mui/material';
import { useT } from '../../i18n/useT';
import { DebugConsole } from './DebugConsole';
import { useLeaveCallGuard } from './LeaveCallGuard';
import { Summary } from './Summary';
import { useVideoCall } from './useVideoCall';
import { CallStage, LobbyStage } from './VideoCallViews';

/**
 * `/video-call?appointment_id=…` (seed 001 §2, issue 13): the lobby, the call and the summary of one appointment's
 * consultation, with the server deciding who may join, when it started and when it ends.
 */
export function VideoCallPage() {
  const t = useT();
  const vc = useVideoCall();
  const { state } = vc;
  const [debugOpen, setDebugOpen] = useState(false);
  const pageRef = useRef<HTMLDivElement>(null);
  // In a call, the app's own navigation asks before it leaves the consultation.
  useLeaveCallGuard(state.phase === 'call', pageRef);
  return (
    <Box ref={pageRef}>
      {vc.pageError && (
        <Alert severity="error" onClose={() => vc.setPageError(null)} sx={{ mb: 2 }} data-testid="video-call-error">
          {t('video.pageError', { message: vc.pageError })}
        </Alert>
      )}
      {state.phase === 'lobby' && <LobbyStage vc={vc} onDebug={() => setDebugOpen(true)} />}
      {(state.phase === 'call' || state.phase === 'leaving') && <CallStage vc={vc} onSettings={() => setDebugOpen(true)} />}
      {state.phase === 'summary' && <Summary summary={state.summary} doctor={vc.doctor} onHome={vc.goHome} />}
      <DebugConsole open={debugOpen} entries={vc.debug.entries} onClear={vc.debug.clear} onClose={() => setDebugOpen(false)} onCopied={vc.copied} />
    </Box>
  );
}
