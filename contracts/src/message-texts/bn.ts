import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'অ্যাপয়েন্টমেন্টের নতুন অনুরোধ',
    text: 'Telemed: {when}-এর জন্য অ্যাপয়েন্টমেন্টের নতুন অনুরোধ এসেছে। মঞ্জুর বা নাকচ করুন: {link}',
  },
  patient_waiting: {
    subject: 'আপনার রোগী অপেক্ষা করছেন',
    text: 'Telemed: আপনার {when}-এর রোগী পরামর্শের জন্য ওয়েটিং রুমে অপেক্ষা করছেন। যোগ দিন: {link}',
  },
  appointment_approved: {
    subject: 'অ্যাপয়েন্টমেন্ট নিশ্চিত হয়েছে',
    text: 'Telemed: {doctor} আপনার {when}-এর অ্যাপয়েন্টমেন্ট নিশ্চিত করেছেন। বিস্তারিত: {link}',
  },
  appointment_rejected: {
    subject: 'অ্যাপয়েন্টমেন্টের অনুরোধ মঞ্জুর হয়নি',
    text: 'Telemed: {doctor} আপনার {when}-এর অনুরোধ মঞ্জুর করতে পারেননি। কারণ দেখুন ও অন্য সময় বেছে নিন: {link}',
  },
  appointment_cancelled: {
    subject: 'অ্যাপয়েন্টমেন্ট বাতিল হয়েছে',
    text: 'Telemed: {when}-এর অ্যাপয়েন্টমেন্ট বাতিল হয়েছে। বিস্তারিত: {link}',
  },
  appointment_reminder: {
    subject: 'পরামর্শের রিমাইন্ডার',
    text: 'Telemed: মনে রাখবেন, {doctor}-এর সঙ্গে আপনার পরামর্শ {when}-এ। যোগ দিন: {link}',
  },
  prescription_ready: {
    subject: 'আপনার প্রেসক্রিপশন তৈরি হয়েছে',
    text: 'Telemed: {doctor} আপনার প্রেসক্রিপশন দিয়েছেন। ডাউনলোড করুন: {link}',
  },
  doctor_no_show: {
    subject: 'আপনার ডাক্তার আসতে পারেননি',
    text: 'Telemed: {doctor} আপনার {when}-এর পরামর্শে আসতে পারেননি। আমরা দুঃখিত। অন্য সময় বুক করুন: {link}',
  },
  times_proposed: {
    subject: 'আপনার ডাক্তার অন্য সময় দিয়েছেন',
    text: 'Telemed: {doctor} আপনার {when}-এর পরামর্শে থাকতে পারবেন না, তাই অন্য সময় দিয়েছেন। একটি বেছে নিন বা প্রত্যাখ্যান করুন: {link}',
  },
  waitlist_offer: {
    subject: 'আপনার ডাক্তারের একটি সময় খালি হয়েছে',
    text: 'Telemed: {doctor}-এর সঙ্গে {when}-এর সময়টি খালি হয়েছে এবং {minutes} মিনিটের জন্য আপনার জন্য রাখা আছে। বুক করুন: {link}',
  },
  sign_in_code: {
    subject: 'আপনার সাইন ইন কোড',
    text: 'Telemed: {code} আপনার সাইন ইন কোড। এটি {minutes} মিনিট বৈধ থাকবে। কাউকে এটি জানাবেন না।',
  },
  phone_verification_code: {
    subject: 'আপনার মোবাইল নম্বর নিশ্চিত করুন',
    text: 'Telemed: {code} এই নম্বরটি আপনার অ্যাকাউন্টে যোগ করার কোড। এটি {minutes} মিনিট বৈধ থাকবে। কাউকে এটি জানাবেন না।',
  },
} satisfies MessageTexts;
