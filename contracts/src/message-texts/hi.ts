import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'अपॉइंटमेंट का नया अनुरोध',
    text: 'Telemed: {when} के लिए अपॉइंटमेंट का नया अनुरोध आया है। मंज़ूर या नामंज़ूर करें: {link}',
  },
  patient_waiting: {
    subject: 'आपके मरीज़ इंतज़ार कर रहे हैं',
    text: 'Telemed: आपके {when} वाले मरीज़ परामर्श के वेटिंग रूम में इंतज़ार कर रहे हैं। जुड़ें: {link}',
  },
  appointment_approved: {
    subject: 'अपॉइंटमेंट कन्फ़र्म हो गया',
    text: 'Telemed: {doctor} ने आपका {when} का अपॉइंटमेंट कन्फ़र्म कर दिया है। विवरण: {link}',
  },
  appointment_rejected: {
    subject: 'अपॉइंटमेंट का अनुरोध मंज़ूर नहीं हुआ',
    text: 'Telemed: {doctor} आपका {when} का अनुरोध मंज़ूर नहीं कर सके। कारण देखें और दूसरा समय चुनें: {link}',
  },
  appointment_cancelled: {
    subject: 'अपॉइंटमेंट रद्द हो गया',
    text: 'Telemed: {when} का अपॉइंटमेंट रद्द हो गया है। विवरण: {link}',
  },
  appointment_reminder: {
    subject: 'परामर्श का रिमाइंडर',
    text: 'Telemed: याद दिला दें, {doctor} के साथ आपका परामर्श {when} है। जुड़ें: {link}',
  },
  prescription_ready: {
    subject: 'आपका पर्चा तैयार है',
    text: 'Telemed: {doctor} ने आपका पर्चा जारी कर दिया है। डाउनलोड करें: {link}',
  },
  doctor_no_show: {
    subject: 'आपके डॉक्टर परामर्श में नहीं आ सके',
    text: 'Telemed: {doctor} आपके {when} के परामर्श में शामिल नहीं हो सके। हमें खेद है। दूसरा समय बुक करें: {link}',
  },
  times_proposed: {
    subject: 'आपके डॉक्टर ने दूसरे समय सुझाए हैं',
    text: 'Telemed: {doctor} आपके {when} के परामर्श के समय उपलब्ध नहीं हैं और उन्होंने दूसरे समय सुझाए हैं। कोई एक चुनें या मना करें: {link}',
  },
  waitlist_offer: {
    subject: 'आपके डॉक्टर के साथ एक समय खाली हुआ है',
    text: 'Telemed: {doctor} के साथ {when} का समय खाली हुआ है और {minutes} मिनट के लिए आपके लिए रखा गया है। बुक करें: {link}',
  },
  sign_in_code: {
    subject: 'आपका साइन इन कोड',
    text: 'Telemed: {code} आपका साइन इन कोड है। यह {minutes} मिनट तक मान्य है। इसे किसी को न बताएँ।',
  },
  phone_verification_code: {
    subject: 'अपने मोबाइल नंबर की पुष्टि करें',
    text: 'Telemed: {code} इस नंबर को आपके खाते में जोड़ने का कोड है। यह {minutes} मिनट तक मान्य है। इसे किसी को न बताएँ।',
  },
} satisfies MessageTexts;
