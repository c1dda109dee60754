import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'ਅਪਾਇੰਟਮੈਂਟ ਦੀ ਨਵੀਂ ਬੇਨਤੀ',
    text: 'Telemed: {when} ਲਈ ਅਪਾਇੰਟਮੈਂਟ ਦੀ ਨਵੀਂ ਬੇਨਤੀ ਆਈ ਹੈ। ਮਨਜ਼ੂਰ ਜਾਂ ਨਾਮਨਜ਼ੂਰ ਕਰੋ: {link}',
  },
  patient_waiting: {
    subject: 'ਤੁਹਾਡੇ ਮਰੀਜ਼ ਉਡੀਕ ਕਰ ਰਹੇ ਹਨ',
    text: 'Telemed: ਤੁਹਾਡੇ {when} ਵਾਲੇ ਮਰੀਜ਼ ਸਲਾਹ ਲਈ ਵੇਟਿੰਗ ਰੂਮ ਵਿੱਚ ਉਡੀਕ ਕਰ ਰਹੇ ਹਨ। ਸ਼ਾਮਲ ਹੋਵੋ: {link}',
  },
  appointment_approved: {
    subject: 'ਅਪਾਇੰਟਮੈਂਟ ਪੱਕੀ ਹੋ ਗਈ',
    text: 'Telemed: {doctor} ਨੇ ਤੁਹਾਡੀ {when} ਦੀ ਅਪਾਇੰਟਮੈਂਟ ਪੱਕੀ ਕਰ ਦਿੱਤੀ ਹੈ। ਵੇਰਵੇ: {link}',
  },
  appointment_rejected: {
    subject: 'ਅਪਾਇੰਟਮੈਂਟ ਦੀ ਬੇਨਤੀ ਮਨਜ਼ੂਰ ਨਹੀਂ ਹੋਈ',
    text: 'Telemed: {doctor} ਤੁਹਾਡੀ {when} ਦੀ ਬੇਨਤੀ ਮਨਜ਼ੂਰ ਨਹੀਂ ਕਰ ਸਕੇ। ਕਾਰਨ ਦੇਖੋ ਅਤੇ ਕੋਈ ਹੋਰ ਸਮਾਂ ਚੁਣੋ: {link}',
  },
  appointment_cancelled: {
    subject: 'ਅਪਾਇੰਟਮੈਂਟ ਰੱਦ ਹੋ ਗਈ',
    text: 'Telemed: {when} ਦੀ ਅਪਾਇੰਟਮੈਂਟ ਰੱਦ ਹੋ ਗਈ ਹੈ। ਵੇਰਵੇ: {link}',
  },
  appointment_reminder: {
    subject: 'ਵੀਡੀਓ ਸਲਾਹ ਦਾ ਰਿਮਾਈਂਡਰ',
    text: 'Telemed: ਯਾਦ ਰੱਖੋ, {doctor} ਨਾਲ ਤੁਹਾਡੀ ਵੀਡੀਓ ਸਲਾਹ {when} ਹੈ। ਸ਼ਾਮਲ ਹੋਵੋ: {link}',
  },
  prescription_ready: {
    subject: 'ਤੁਹਾਡੀ ਪਰਚੀ ਤਿਆਰ ਹੈ',
    text: 'Telemed: {doctor} ਨੇ ਤੁਹਾਡੀ ਪਰਚੀ ਜਾਰੀ ਕਰ ਦਿੱਤੀ ਹੈ। ਡਾਊਨਲੋਡ ਕਰੋ: {link}',
  },
  doctor_no_show: {
    subject: 'ਤੁਹਾਡੇ ਡਾਕਟਰ ਹਾਜ਼ਰ ਨਹੀਂ ਹੋ ਸਕੇ',
    text: 'Telemed: {doctor} ਤੁਹਾਡੀ {when} ਦੀ ਸਲਾਹ ਵਿੱਚ ਹਾਜ਼ਰ ਨਹੀਂ ਹੋ ਸਕੇ। ਸਾਨੂੰ ਅਫ਼ਸੋਸ ਹੈ। ਕੋਈ ਹੋਰ ਸਮਾਂ ਬੁੱਕ ਕਰੋ: {link}',
  },
  times_proposed: {
    subject: 'ਤੁਹਾਡੇ ਡਾਕਟਰ ਨੇ ਹੋਰ ਸਮੇਂ ਸੁਝਾਏ ਹਨ',
    text: 'Telemed: {doctor} ਤੁਹਾਡੀ {when} ਦੀ ਸਲਾਹ ਲਈ ਉਪਲਬਧ ਨਹੀਂ ਹਨ ਅਤੇ ਉਨ੍ਹਾਂ ਨੇ ਹੋਰ ਸਮੇਂ ਸੁਝਾਏ ਹਨ। ਇੱਕ ਚੁਣੋ ਜਾਂ ਇਨਕਾਰ ਕਰੋ: {link}',
  },
  waitlist_offer: {
    subject: 'ਤੁਹਾਡੇ ਡਾਕਟਰ ਕੋਲ ਇੱਕ ਸਮਾਂ ਖਾਲੀ ਹੋਇਆ ਹੈ',
    text: 'Telemed: {doctor} ਨਾਲ {when} ਦਾ ਸਮਾਂ ਖਾਲੀ ਹੋਇਆ ਹੈ ਅਤੇ {minutes} ਮਿੰਟਾਂ ਲਈ ਤੁਹਾਡੇ ਲਈ ਰੱਖਿਆ ਗਿਆ ਹੈ। ਬੁੱਕ ਕਰੋ: {link}',
  },
  sign_in_code: {
    subject: 'ਤੁਹਾਡਾ ਸਾਈਨ ਇਨ ਕੋਡ',
    text: 'Telemed: {code} ਤੁਹਾਡਾ ਸਾਈਨ ਇਨ ਕੋਡ ਹੈ। ਇਹ {minutes} ਮਿੰਟ ਤੱਕ ਚੱਲੇਗਾ। ਇਹ ਕੋਡ ਕਿਸੇ ਨੂੰ ਨਾ ਦੱਸੋ।',
  },
  phone_verification_code: {
    subject: 'ਆਪਣੇ ਮੋਬਾਈਲ ਨੰਬਰ ਦੀ ਪੁਸ਼ਟੀ ਕਰੋ',
    text: 'Telemed: {code} ਇਸ ਨੰਬਰ ਨੂੰ ਤੁਹਾਡੇ ਖਾਤੇ ਵਿੱਚ ਜੋੜਨ ਦਾ ਕੋਡ ਹੈ। ਇਹ {minutes} ਮਿੰਟ ਤੱਕ ਚੱਲੇਗਾ। ਇਹ ਕੋਡ ਕਿਸੇ ਨੂੰ ਨਾ ਦੱਸੋ।',
  },
} satisfies MessageTexts;
