import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, renderHook, screen, within } from '@testing-library/react';
import { CONSULTATION_TEXTS } from '@telemed/contracts';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { I18nProvider } from '../../i18n/I18nProvider';
import { useT, type Translate } from '../../i18n/useT';
import { Lobby } from './Lobby';
import { Summary } from './Summary';
import {
  CALL_STATUS_IDS,
  CALL_STATUS_LABELS,
  VIDEO_TEXTS,
  buildSummary,
  formatRemaining,
  mediaErrorReason,
  remainingText,
  roleDisplayName,
  roleDisplayText,
  summaryText,
  type CallStatus,
} from './model';
import type { LocalMedia } from './useLocalMedia';
import { CALL_RECORD } from '../../test/callRecord';

/** The screens' English (outside an I18nProvider, useT speaks the English catalogue). */
function english(): Translate {
  return renderHook(() => useT()).result.current;
}

const IPHONE_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';
const record = CALL_RECORD;

describe('the video catalogue’s English is the seeds’ words, so that the screens and the contracts cannot drift apart', () => {
  afterEach(cleanup);

  it('says every VIDEO_TEXTS text, with its values', () => {
    const t = english();
    const same: Array<[string, string]> = [
      [t('video.readyToConnect'), VIDEO_TEXTS.readyToConnect],
      [t('video.sessionType'), VIDEO_TEXTS.sessionType],
      [t('video.security'), VIDEO_TEXTS.security],
      [t('video.startConsultation'), VIDEO_TEXTS.startConsultation],
      [t('video.connectingSecurely'), VIDEO_TEXTS.connectingSecurely],
      [t('video.permissionsNeeded'), VIDEO_TEXTS.permissionsNeeded],
      [t('video.note'), VIDEO_TEXTS.note],
      [t('video.doctorNotJoinedYet'), VIDEO_TEXTS.doctorNotJoinedYet],
      [t('video.waitingInCall', { name: 'Priya Patel' }), VIDEO_TEXTS.waitingInCall('Priya Patel')],
      [t('video.waitingInCall', { name: t('video.theDoctor') }), VIDEO_TEXTS.waitingInCall('the doctor')],
      [t('video.waitingInCall', { name: t('video.thePatient') }), VIDEO_TEXTS.waitingInCall('the patient')],
      [t('video.waitingInCallHint'), VIDEO_TEXTS.waitingInCallHint],
      [t('video.otherLeftCall', { name: 'Priya Patel' }), VIDEO_TEXTS.otherLeftCall('Priya Patel')],
      [t('video.doctorInLobby'), VIDEO_TEXTS.doctorInLobby],
      [t('video.patientInLobby'), VIDEO_TEXTS.patientInLobby],
      [t('video.connectionIssue'), VIDEO_TEXTS.connectionIssue],
      [t('video.iphoneBlocked'), VIDEO_TEXTS.iphoneBlocked],
      [t('video.permissionFailure', { reason: 'x' }), VIDEO_TEXTS.permissionFailure('x')],
      [t('video.basicPermissionFailure', { reason: 'x' }), VIDEO_TEXTS.basicPermissionFailure('x')],
      [t('video.joinFailure', { reason: 'x' }), VIDEO_TEXTS.joinFailure('x')],
      [t('video.roomError', { reason: 'x' }), VIDEO_TEXTS.roomError('x')],
      [t('video.roomError', { reason: t('video.unknownError') }), VIDEO_TEXTS.roomError()],
      [t('video.toggleCamera'), VIDEO_TEXTS.toggleCamera],
      [t('video.toggleMicrophone'), VIDEO_TEXTS.toggleMicrophone],
      [t('video.pageError', { message: 'x' }), VIDEO_TEXTS.pageError('x')],
      [t('video.timeWarning', { remaining: '5 minutes' }), VIDEO_TEXTS.timeWarning('5 minutes')],
      [t('video.complete'), VIDEO_TEXTS.complete],
      [t('video.autoEndedSubtitle'), VIDEO_TEXTS.autoEndedSubtitle],
      [t('video.thanks', { product: PRODUCT_NAME }), VIDEO_TEXTS.thanks],
      [t('video.endTitle'), VIDEO_TEXTS.endTitle],
    ];
    for (const [message, seed] of same) expect(message).toBe(seed);
  });

  it('says the contracts’ CONSULTATION_TEXTS the screens show', () => {
    const t = english();
    expect(t('video.autoEndedSubtitle')).toBe(CONSULTATION_TEXTS.autoEndedSubtitle);
    expect(t('video.timeWarning', { remaining: '45 seconds' })).toBe(CONSULTATION_TEXTS.timeWarning('45 seconds'));
  });

  it('names the call’s statuses, the roles, the remaining time and the media failures as model.ts does in English', () => {
    const t = english();
    for (const status of Object.keys(CALL_STATUS_LABELS) as CallStatus[]) expect(t(CALL_STATUS_IDS[status])).toBe(CALL_STATUS_LABELS[status]);
    for (const role of ['DOCTOR', 'USER', 'patient', 'admin']) expect(roleDisplayText(t, roleDisplayName(role))).toBe(roleDisplayName(role));
    expect(roleDisplayText(t, 'Someone else')).toBe('Someone else');
    for (const seconds of [0, 1, 45, 59, 60, 61, 300, 1800]) expect(remainingText(t, seconds)).toBe(formatRemaining(seconds));
    expect(mediaErrorReason({ name: 'NotAllowedError' }, 'Chrome', t)).toBe('permission was denied');
    expect(mediaErrorReason({ name: 'NotAllowedError' }, IPHONE_CHROME, t)).toBe(VIDEO_TEXTS.iphoneBlocked);
    expect(mediaErrorReason({ name: 'NotFoundError' }, 'Chrome', t)).toBe('no camera or microphone was found');
    expect(mediaErrorReason({ name: 'NotReadableError' }, 'Chrome', t)).toBe('the camera or microphone is in use by another application');
    expect(mediaErrorReason({ name: 'OverconstrainedError' }, 'Chrome', t)).toBe('the camera does not support the requested quality');
    expect(mediaErrorReason({ name: 'AbortError', message: 'Starting videoinput failed' }, 'Chrome', t)).toBe('Starting videoinput failed');
    expect(mediaErrorReason(null, 'Chrome', t)).toBe('unknown error');
  });

  it('writes the summary file as the seeds do', () => {
    const t = english();
    const at = new Date('2026-11-23T05:00:00Z');
    const doctor = { id: 'doc', name: 'Dr. Ananya Sharma', role: 'DOCTOR' };
    for (const summary of [
      buildSummary({ record, me: doctor, autoEnded: false, timeZone: 'Asia/Kolkata' }),
      buildSummary({ record: { ...record, auto_ended: false }, me: doctor, autoEnded: false, timeZone: 'America/New_York' }),
      buildSummary({ record: null, me: { id: 'x', name: 'Asha', role: 'USER' }, autoEnded: true, timeZone: 'Asia/Kolkata' }),
    ])
      expect(summaryText(summary, at, t)).toBe(summaryText(summary, at));
  });
});

describe('the video screens in Hindi', () => {
  afterEach(() => {
    cleanup();
    document.documentElement.lang = 'en'; // the provider set it
  });

  it('the summary: its heading, labels and roles in Hindi, the call’s day in Hindi’s words with Western digits', async () => {
    const summary = buildSummary({ record, me: { id: 'doc', name: 'Dr. Ananya Sharma', role: 'DOCTOR' }, autoEnded: true, timeZone: 'Asia/Kolkata' });
    render(
      <I18nProvider language="hi">
        <Summary summary={summary} doctor onHome={() => {}} />
      </I18nProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'परामर्श पूरा हुआ' })).toBeTruthy();
    expect(screen.getByTestId('summary-subtitle').textContent).toBe('समय सीमा पूरी होने के कारण आपका परामर्श अपने-आप ख़त्म हो गया');
    const day = screen.getByTestId('summary-date').textContent ?? '';
    expect(day).toBe(new Intl.DateTimeFormat('hi-IN-u-nu-latn', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' }).format(new Date(record.started_at)));
    expect(day).toMatch(/^23 \S+ 2026$/);
    expect(day).not.toBe('23 Nov 2026');
    expect(screen.getByTestId('summary-start-time').textContent).toBe('10:00');
    expect(screen.getByTestId('summary-status').textContent).toBe('अपने-आप ख़त्म हुआ');
    expect(screen.getByText('अवधि')).toBeTruthy();
    const participants = screen.getAllByTestId('summary-participants').find((element) => element.tagName === 'UL')!;
    expect(within(participants).getByText('डॉक्टर')).toBeTruthy();
    expect(within(participants).getByText('मरीज़')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'सारांश डाउनलोड करें' })).toBeTruthy();
  });

  it('the lobby: the devices’ readiness, the appointment and Start Consultation in Hindi', async () => {
    const media: LocalMedia = { stream: null, cameraReady: true, microphoneReady: false, level: 0, error: null, clearError: vi.fn(), requesting: false, retry: vi.fn(), retryBasic: vi.fn(), stop: vi.fn() };
    render(
      <I18nProvider language="hi">
        <Lobby name="Priya Patel" roleDisplayName="मरीज़" media={media} joining={false} waitingForDoctor={false} otherInLobby={null} error={null} onClearError={() => {}} onStart={() => {}} onDebug={() => {}} diagnostics={{ secureContext: true, mediaDevices: true, peerConnection: true, socket: 'connected', tokenWellFormed: true }} appointment={{ otherName: 'Dr. Kavita Rao', when: 'आज 7:30 am' }} />
      </I18nProvider>,
    );
    expect(await screen.findByRole('button', { name: 'परामर्श शुरू करें' })).toBeTruthy();
    expect(screen.getByTestId('camera-readiness').textContent).toBe('कैमरा: तैयार');
    expect(screen.getByTestId('microphone-readiness').textContent).toBe('माइक्रोफ़ोन: तैयार नहीं');
    expect(screen.getByTestId('lobby-appointment').textContent).toBe('Dr. Kavita Rao के साथ परामर्श · आज 7:30 am');
    expect(screen.getByRole('button', { name: 'फिर से अनुमति माँगें' })).toBeTruthy();
  });
});
