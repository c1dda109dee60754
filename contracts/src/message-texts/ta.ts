import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'புதிய சந்திப்புக் கோரிக்கை',
    text: 'Telemed: {when} சந்திப்புக்குப் புதிய கோரிக்கை வந்துள்ளது. ஏற்கவும் அல்லது நிராகரிக்கவும்: {link}',
  },
  patient_waiting: {
    subject: 'உங்கள் நோயாளி காத்திருக்கிறார்',
    text: 'Telemed: உங்கள் {when} சந்திப்புக்கான நோயாளி காத்திருப்பு அறையில் காத்திருக்கிறார். சேரவும்: {link}',
  },
  appointment_approved: {
    subject: 'சந்திப்பு உறுதிசெய்யப்பட்டது',
    text: 'Telemed: உங்கள் {when} சந்திப்பை {doctor} உறுதிசெய்தார். விவரங்கள்: {link}',
  },
  appointment_rejected: {
    subject: 'சந்திப்புக் கோரிக்கை ஏற்கப்படவில்லை',
    text: 'Telemed: {when} சந்திப்புக் கோரிக்கையை {doctor} அவர்களால் ஏற்க முடியவில்லை. காரணத்தைப் பார்த்து வேறு நேரம் தேர்ந்தெடுக்கவும்: {link}',
  },
  appointment_cancelled: {
    subject: 'சந்திப்பு ரத்துசெய்யப்பட்டது',
    text: 'Telemed: {when} சந்திப்பு ரத்துசெய்யப்பட்டது. விவரங்கள்: {link}',
  },
  appointment_reminder: {
    subject: 'ஆலோசனை நினைவூட்டல்',
    text: 'Telemed: நினைவூட்டல், {doctor} அவர்களுடன் உங்கள் ஆலோசனை {when} நடைபெறும். சேரவும்: {link}',
  },
  prescription_ready: {
    subject: 'உங்கள் மருந்துச் சீட்டு தயார்',
    text: 'Telemed: {doctor} உங்கள் மருந்துச் சீட்டை வழங்கியுள்ளார். பதிவிறக்கவும்: {link}',
  },
  doctor_no_show: {
    subject: 'உங்கள் மருத்துவர் கலந்துகொள்ள முடியவில்லை',
    text: 'Telemed: {doctor} உங்கள் {when} ஆலோசனையில் கலந்துகொள்ள முடியவில்லை. மன்னிக்கவும். வேறு நேரத்தை முன்பதிவு செய்யுங்கள்: {link}',
  },
  times_proposed: {
    subject: 'உங்கள் மருத்துவர் வேறு நேரங்களை வழங்கியுள்ளார்',
    text: 'Telemed: {doctor} உங்கள் {when} ஆலோசனைக்கு வர இயலாது, வேறு நேரங்களை வழங்கியுள்ளார். ஒன்றைத் தேர்ந்தெடுக்கவும் அல்லது மறுக்கவும்: {link}',
  },
  sign_in_code: {
    subject: 'உங்கள் உள்நுழைவுக் குறியீடு',
    text: 'Telemed: {code} என்பது உங்கள் உள்நுழைவுக் குறியீடு. இது {minutes} நிமிடங்களுக்குச் செல்லுபடியாகும். இதை யாருடனும் பகிர வேண்டாம்.',
  },
  phone_verification_code: {
    subject: 'உங்கள் மொபைல் எண்ணை உறுதிசெய்யுங்கள்',
    text: 'Telemed: {code} என்பது இந்த எண்ணை உங்கள் கணக்கில் சேர்ப்பதற்கான குறியீடு. இது {minutes} நிமிடங்களுக்குச் செல்லுபடியாகும். இதை யாருடனும் பகிர வேண்டாம்.',
  },
} satisfies MessageTexts;
