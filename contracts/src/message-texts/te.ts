import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'కొత్త అపాయింట్‌మెంట్ అభ్యర్థన',
    text: 'Telemed: {when} కోసం కొత్త అపాయింట్‌మెంట్ అభ్యర్థన వచ్చింది. ఆమోదించండి లేదా తిరస్కరించండి: {link}',
  },
  patient_waiting: {
    subject: 'మీ రోగి ఎదురుచూస్తున్నారు',
    text: 'Telemed: {when} అపాయింట్‌మెంట్ ఉన్న మీ రోగి సంప్రదింపు కోసం వెయిటింగ్ రూమ్‌లో ఎదురుచూస్తున్నారు. చేరండి: {link}',
  },
  appointment_approved: {
    subject: 'అపాయింట్‌మెంట్ కన్ఫర్మ్ అయింది',
    text: 'Telemed: మీ {when} అపాయింట్‌మెంట్‌ను {doctor} కన్ఫర్మ్ చేశారు. వివరాలు: {link}',
  },
  appointment_rejected: {
    subject: 'అపాయింట్‌మెంట్ అభ్యర్థన ఆమోదం పొందలేదు',
    text: 'Telemed: మీ {when} అపాయింట్‌మెంట్ అభ్యర్థనను {doctor} ఆమోదించలేకపోయారు. కారణం చూసి, వేరే సమయం ఎంచుకోండి: {link}',
  },
  appointment_cancelled: {
    subject: 'అపాయింట్‌మెంట్ రద్దు అయింది',
    text: 'Telemed: {when} అపాయింట్‌మెంట్ రద్దు అయింది. వివరాలు: {link}',
  },
  appointment_reminder: {
    subject: 'సంప్రదింపు రిమైండర్',
    text: 'Telemed: గుర్తుంచుకోండి, {doctor} గారితో మీ సంప్రదింపు {when} సమయానికి ఉంది. చేరండి: {link}',
  },
  prescription_ready: {
    subject: 'మీ ప్రిస్క్రిప్షన్ సిద్ధంగా ఉంది',
    text: 'Telemed: {doctor} మీ ప్రిస్క్రిప్షన్ ఇచ్చారు. డౌన్‌లోడ్ చేయండి: {link}',
  },
  doctor_no_show: {
    subject: 'మీ డాక్టర్ హాజరు కాలేకపోయారు',
    text: 'Telemed: {doctor} మీ {when} సంప్రదింపుకు హాజరు కాలేకపోయారు. క్షమించండి. మరో సమయం బుక్ చేయండి: {link}',
  },
  times_proposed: {
    subject: 'మీ డాక్టర్ వేరే సమయాలు సూచించారు',
    text: 'Telemed: {doctor} మీ {when} సంప్రదింపుకు రాలేరు, వేరే సమయాలు సూచించారు. ఒకటి ఎంచుకోండి లేదా తిరస్కరించండి: {link}',
  },
  waitlist_offer: {
    subject: 'మీ డాక్టర్ వద్ద ఒక సమయం ఖాళీ అయింది',
    text: 'Telemed: {doctor} తో {when} సమయం ఖాళీ అయింది, మీ కోసం {minutes} నిమిషాలు ఉంచబడింది. బుక్ చేయండి: {link}',
  },
  sign_in_code: {
    subject: 'మీ సైన్ ఇన్ కోడ్',
    text: 'Telemed: {code} మీ సైన్ ఇన్ కోడ్. ఇది {minutes} నిమిషాలు చెల్లుతుంది. దీన్ని ఎవరికీ చెప్పవద్దు.',
  },
  phone_verification_code: {
    subject: 'మీ మొబైల్ నంబర్‌ను నిర్ధారించండి',
    text: 'Telemed: {code} ఈ నంబర్‌ను మీ ఖాతాకు జోడించే కోడ్. ఇది {minutes} నిమిషాలు చెల్లుతుంది. దీన్ని ఎవరికీ చెప్పవద్దు.',
  },
} satisfies MessageTexts;
