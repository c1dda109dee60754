import type { ToastInput } from '../lib/toasts';
import type { RealtimeEvents } from '../lib/realtime';
import type { Format } from '../i18n/format';
import type { Translate } from '../i18n/useT';

type StatusChange = Parameters<RealtimeEvents['appointmentStatusChange']>;

/**
 * The toast an appointment's status change shows, as the one reading it (a doctor or a patient) sees it; null when
 * the page that made the change has said so already.
 */
export function statusChangeToast(
  status: StatusChange[0],
  data: StatusChange[1],
  viewer: { doctor: boolean; t: Translate; f: Format; go: (path: string) => void },
): ToastInput | null {
  const { doctor, t, f, go } = viewer;
  const when = f.whenPhrase(data.start_at as string | undefined);
  const patient = String(data.patient_name ?? t('shell.thePatient'));
  const doctorName = String(data.doctor_name ?? t('shell.theDoctor'));
  const viewAppointments = { label: t('shell.viewAppointments'), primary: true, handler: () => go('/my-appointments') };
  switch (status) {
    case 'approved':
      return {
        type: 'success',
        title: t('shell.approvedTitle'),
        message: t('shell.approvedText', { doctor: String(data.doctor_name ?? t('shell.yourDoctor')), when }),
        duration: 8000,
        actions: [viewAppointments],
      };
    case 'rejected':
      // Closed by the system when the patient withdrew consent: nobody declined anything.
      if (data.status_reason === 'consent_withdrawn') {
        const message = doctor ? t('shell.requestWithdrawnForDoctor', { patient, when }) : t('shell.requestWithdrawnForPatient', { doctor: doctorName, when });
        return { type: 'info', title: t('shell.requestWithdrawnTitle'), message, duration: 8000 };
      }
      return {
        type: 'error',
        title: t('shell.declinedTitle'),
        message: data.rejection_reason
          ? t('shell.declinedTextWithReason', { doctor: doctorName, when, reason: String(data.rejection_reason) })
          : t('shell.declinedText', { doctor: doctorName, when }),
        duration: 10_000,
        actions: [{ label: t('shell.bookAnother'), primary: true, handler: () => go('/home') }],
      };
    case 'cancelled': {
      // The page that cancelled has said so already.
      if (data.cancelled_by === (doctor ? 'doctor' : 'patient')) return null;
      const message = doctor ? t('shell.cancelledByPatient', { patient, when }) : t('shell.cancelledByDoctor', { doctor: doctorName, when });
      return { type: 'info', title: t('shell.cancelledTitle'), message, duration: 5000 };
    }
    case 'expired': {
      const message = doctor ? t('shell.requestExpiredForDoctor', { patient, when }) : t('shell.requestExpiredForPatient', { doctor: doctorName, when });
      return { type: 'info', title: t('shell.requestExpiredTitle'), message, duration: 5000 };
    }
    case 'moved':
      // A move that kept it confirmed: told to the doctor (the patient made it).
      return doctor ? { type: 'info', title: t('shell.movedTitle'), message: t('shell.movedForDoctor', { patient, when }), duration: 8000 } : null;
    case 'no_show': {
      // The doctor who marked the patient absent has seen it on their own page.
      if (doctor && data.absent === 'patient') return null;
      const message = doctor
        ? t('shell.noShowForDoctor', { patient, when })
        : data.absent === 'patient'
          ? t('shell.noShowPatientAbsent', { doctor: doctorName, when })
          : t('shell.noShowDoctorAbsent', { doctor: doctorName, when });
      return { type: 'info', title: t('shell.noShowTitle'), message, duration: 10_000 };
    }
    case 'times_proposed':
      // The doctor who offered them has seen it on their own page; the patient is asked to answer.
      if (doctor) return null;
      return { type: 'appointment', title: t('shell.timesProposedTitle'), message: t('shell.timesProposedText', { doctor: doctorName, when }), duration: 15_000, actions: [viewAppointments] };
    default:
      return { type: 'info', title: t('shell.updateTitle'), message: t('shell.updateText', { when, status }), duration: 5000 };
  }
}
