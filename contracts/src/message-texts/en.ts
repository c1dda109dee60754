import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'New consultation request',
    text: 'Telemed: you have a new consultation request for {when}. Open {link} to approve or reject it.',
  },
  patient_waiting: {
    subject: 'Your patient is waiting',
    text: 'Telemed: your patient for {when} is waiting in the consultation lobby. Join at {link}',
  },
  appointment_approved: {
    subject: 'Consultation confirmed',
    text: 'Telemed: {doctor} confirmed your consultation for {when}. Details: {link}',
  },
  appointment_rejected: {
    subject: 'Consultation request not accepted',
    text: 'Telemed: {doctor} could not accept your consultation request for {when}. See why and book another time: {link}',
  },
  appointment_cancelled: {
    subject: 'Consultation cancelled',
    text: 'Telemed: the consultation for {when} was cancelled. Details: {link}',
  },
  appointment_reminder: {
    subject: 'Consultation reminder',
    text: 'Telemed: reminder, your consultation with {doctor} is at {when}. Join at {link}',
  },
  prescription_ready: {
    subject: 'Your prescription is ready',
    text: 'Telemed: {doctor} has issued your prescription. Download it at {link}',
  },
  doctor_no_show: {
    subject: 'Your doctor could not attend',
    text: 'Telemed: {doctor} could not attend your consultation at {when}. We apologise. Book another time: {link}',
  },
  times_proposed: {
    subject: 'Your doctor offered other times',
    text: 'Telemed: {doctor} cannot make your consultation at {when} and offered other times. Choose one or decline: {link}',
  },
  waitlist_offer: {
    subject: 'A time with your doctor is free',
    text: 'Telemed: a time with {doctor} on {when} is free and held for you for {minutes} minutes. Book it: {link}',
  },
  sign_in_code: {
    subject: 'Your sign-in code',
    text: 'Telemed: {code} is your sign-in code. It is valid for {minutes} minutes. Do not share it with anyone.',
  },
  phone_verification_code: {
    subject: 'Confirm your mobile number',
    text: 'Telemed: {code} is your code to add this number to your account. It is valid for {minutes} minutes. Do not share it with anyone.',
  },
} satisfies MessageTexts;
