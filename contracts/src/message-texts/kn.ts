import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'ಹೊಸ ಅಪಾಯಿಂಟ್‌ಮೆಂಟ್ ವಿನಂತಿ',
    text: 'Telemed: {when} ಸಮಯಕ್ಕೆ ಹೊಸ ಅಪಾಯಿಂಟ್‌ಮೆಂಟ್ ವಿನಂತಿ ಬಂದಿದೆ. ಅನುಮೋದಿಸಿ ಅಥವಾ ತಿರಸ್ಕರಿಸಿ: {link}',
  },
  patient_waiting: {
    subject: 'ನಿಮ್ಮ ರೋಗಿ ಕಾಯುತ್ತಿದ್ದಾರೆ',
    text: 'Telemed: ನಿಮ್ಮ {when} ಸಮಯದ ರೋಗಿ ಸಮಾಲೋಚನೆಗಾಗಿ ವೇಟಿಂಗ್ ರೂಮ್‌ನಲ್ಲಿ ಕಾಯುತ್ತಿದ್ದಾರೆ. ಸೇರಿ: {link}',
  },
  appointment_approved: {
    subject: 'ಅಪಾಯಿಂಟ್‌ಮೆಂಟ್ ಖಚಿತವಾಗಿದೆ',
    text: 'Telemed: ನಿಮ್ಮ {when} ಸಮಯದ ಅಪಾಯಿಂಟ್‌ಮೆಂಟನ್ನು {doctor} ಖಚಿತಪಡಿಸಿದ್ದಾರೆ. ವಿವರಗಳು: {link}',
  },
  appointment_rejected: {
    subject: 'ಅಪಾಯಿಂಟ್‌ಮೆಂಟ್ ವಿನಂತಿ ಅನುಮೋದನೆಯಾಗಿಲ್ಲ',
    text: 'Telemed: ನಿಮ್ಮ {when} ಸಮಯದ ವಿನಂತಿಯನ್ನು {doctor} ಅವರಿಗೆ ಅನುಮೋದಿಸಲು ಸಾಧ್ಯವಾಗಿಲ್ಲ. ಕಾರಣ ನೋಡಿ, ಬೇರೆ ಸಮಯ ಆರಿಸಿ: {link}',
  },
  appointment_cancelled: {
    subject: 'ಅಪಾಯಿಂಟ್‌ಮೆಂಟ್ ರದ್ದಾಗಿದೆ',
    text: 'Telemed: {when} ಸಮಯದ ಅಪಾಯಿಂಟ್‌ಮೆಂಟ್ ರದ್ದಾಗಿದೆ. ವಿವರಗಳು: {link}',
  },
  appointment_reminder: {
    subject: 'ಸಮಾಲೋಚನೆಯ ಜ್ಞಾಪನೆ',
    text: 'Telemed: ನೆನಪಿರಲಿ, {doctor} ಅವರೊಂದಿಗೆ ನಿಮ್ಮ ಸಮಾಲೋಚನೆ {when} ಸಮಯಕ್ಕೆ ಇದೆ. ಸೇರಿ: {link}',
  },
  prescription_ready: {
    subject: 'ನಿಮ್ಮ ಪ್ರಿಸ್ಕ್ರಿಪ್ಷನ್ ಸಿದ್ಧವಾಗಿದೆ',
    text: 'Telemed: {doctor} ನಿಮ್ಮ ಪ್ರಿಸ್ಕ್ರಿಪ್ಷನ್ ನೀಡಿದ್ದಾರೆ. ಡೌನ್‌ಲೋಡ್ ಮಾಡಿ: {link}',
  },
  doctor_no_show: {
    subject: 'ನಿಮ್ಮ ವೈದ್ಯರು ಬರಲು ಸಾಧ್ಯವಾಗಲಿಲ್ಲ',
    text: 'Telemed: {doctor} ಅವರು ನಿಮ್ಮ {when} ರ ಸಮಾಲೋಚನೆಗೆ ಬರಲು ಸಾಧ್ಯವಾಗಲಿಲ್ಲ. ಕ್ಷಮಿಸಿ. ಬೇರೆ ಸಮಯ ಬುಕ್ ಮಾಡಿ: {link}',
  },
  times_proposed: {
    subject: 'ನಿಮ್ಮ ವೈದ್ಯರು ಬೇರೆ ಸಮಯಗಳನ್ನು ಸೂಚಿಸಿದ್ದಾರೆ',
    text: 'Telemed: {doctor} ಅವರು ನಿಮ್ಮ {when} ರ ಸಮಾಲೋಚನೆಗೆ ಬರಲಾಗುವುದಿಲ್ಲ, ಬೇರೆ ಸಮಯಗಳನ್ನು ಸೂಚಿಸಿದ್ದಾರೆ. ಒಂದನ್ನು ಆರಿಸಿ ಅಥವಾ ನಿರಾಕರಿಸಿ: {link}',
  },
  waitlist_offer: {
    subject: 'ನಿಮ್ಮ ವೈದ್ಯರ ಬಳಿ ಒಂದು ಸಮಯ ಖಾಲಿಯಾಗಿದೆ',
    text: 'Telemed: {doctor} ಅವರೊಂದಿಗೆ {when} ಸಮಯ ಖಾಲಿಯಾಗಿದೆ, ನಿಮಗಾಗಿ {minutes} ನಿಮಿಷ ಕಾಯ್ದಿರಿಸಲಾಗಿದೆ. ಬುಕ್ ಮಾಡಿ: {link}',
  },
  sign_in_code: {
    subject: 'ನಿಮ್ಮ ಸೈನ್ ಇನ್ ಕೋಡ್',
    text: 'Telemed: {code} ನಿಮ್ಮ ಸೈನ್ ಇನ್ ಕೋಡ್. ಇದು {minutes} ನಿಮಿಷಗಳವರೆಗೆ ಮಾನ್ಯವಾಗಿರುತ್ತದೆ. ಇದನ್ನು ಯಾರಿಗೂ ಹೇಳಬೇಡಿ.',
  },
  phone_verification_code: {
    subject: 'ನಿಮ್ಮ ಮೊಬೈಲ್ ಸಂಖ್ಯೆಯನ್ನು ಖಚಿತಪಡಿಸಿ',
    text: 'Telemed: {code} ಈ ಸಂಖ್ಯೆಯನ್ನು ನಿಮ್ಮ ಖಾತೆಗೆ ಸೇರಿಸುವ ಕೋಡ್. ಇದು {minutes} ನಿಮಿಷಗಳವರೆಗೆ ಮಾನ್ಯವಾಗಿರುತ್ತದೆ. ಇದನ್ನು ಯಾರಿಗೂ ಹೇಳಬೇಡಿ.',
  },
} satisfies MessageTexts;
