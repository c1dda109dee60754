import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'अपॉइंटमेंटची नवी विनंती',
    text: 'Telemed: {when} साठी अपॉइंटमेंटची नवी विनंती आली आहे. मंजूर करा किंवा नाकारा: {link}',
  },
  patient_waiting: {
    subject: 'तुमचे रुग्ण वाट पाहत आहेत',
    text: 'Telemed: तुमचे {when} चे रुग्ण सल्ल्यासाठी वेटिंग रूममध्ये वाट पाहत आहेत. सामील व्हा: {link}',
  },
  appointment_approved: {
    subject: 'अपॉइंटमेंट निश्चित झाली',
    text: 'Telemed: {doctor} यांनी तुमची {when} ची अपॉइंटमेंट निश्चित केली आहे. तपशील: {link}',
  },
  appointment_rejected: {
    subject: 'अपॉइंटमेंटची विनंती मंजूर झाली नाही',
    text: 'Telemed: {doctor} तुमची {when} ची विनंती मंजूर करू शकले नाहीत. कारण पाहा आणि दुसरी वेळ निवडा: {link}',
  },
  appointment_cancelled: {
    subject: 'अपॉइंटमेंट रद्द झाली',
    text: 'Telemed: {when} ची अपॉइंटमेंट रद्द झाली आहे. तपशील: {link}',
  },
  appointment_reminder: {
    subject: 'व्हिडिओ सल्ल्याची आठवण',
    text: 'Telemed: लक्षात ठेवा, {doctor} यांच्याशी तुमचा व्हिडिओ सल्ला {when} आहे. सामील व्हा: {link}',
  },
  prescription_ready: {
    subject: 'तुमचे प्रिस्क्रिप्शन तयार आहे',
    text: 'Telemed: {doctor} यांनी तुमचे प्रिस्क्रिप्शन दिले आहे. डाउनलोड करा: {link}',
  },
  doctor_no_show: {
    subject: 'तुमचे डॉक्टर उपस्थित राहू शकले नाहीत',
    text: 'Telemed: {doctor} तुमच्या {when} च्या सल्लामसलतीला उपस्थित राहू शकले नाहीत. क्षमस्व. दुसरी वेळ बुक करा: {link}',
  },
  times_proposed: {
    subject: 'तुमच्या डॉक्टरांनी दुसऱ्या वेळा सुचवल्या आहेत',
    text: 'Telemed: {doctor} तुमच्या {when} च्या सल्लामसलतीला उपलब्ध नाहीत आणि त्यांनी दुसऱ्या वेळा सुचवल्या आहेत. एक निवडा किंवा नाकारा: {link}',
  },
  waitlist_offer: {
    subject: 'तुमच्या डॉक्टरांकडे एक वेळ मोकळी झाली आहे',
    text: 'Telemed: {doctor} यांच्यासोबत {when} ची वेळ मोकळी झाली आहे आणि {minutes} मिनिटांसाठी तुमच्यासाठी राखून ठेवली आहे. बुक करा: {link}',
  },
  sign_in_code: {
    subject: 'तुमचा साइन इन कोड',
    text: 'Telemed: {code} हा तुमचा साइन इन कोड आहे. तो {minutes} मिनिटे वैध आहे. तो कोणालाही सांगू नका.',
  },
  phone_verification_code: {
    subject: 'तुमच्या मोबाइल नंबरची पुष्टी करा',
    text: 'Telemed: हा नंबर तुमच्या खात्याला जोडण्याचा कोड {code} आहे. तो {minutes} मिनिटे वैध आहे. तो कोणालाही सांगू नका.',
  },
} satisfies MessageTexts;
