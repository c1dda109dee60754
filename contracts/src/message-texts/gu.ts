import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'એપોઇન્ટમેન્ટની નવી વિનંતી',
    text: 'Telemed: {when} માટે એપોઇન્ટમેન્ટની નવી વિનંતી આવી છે. મંજૂર કે નામંજૂર કરો: {link}',
  },
  patient_waiting: {
    subject: 'તમારા દર્દી રાહ જોઈ રહ્યા છે',
    text: 'Telemed: તમારા {when} વાળા દર્દી સલાહ માટે વેઇટિંગ રૂમમાં રાહ જોઈ રહ્યા છે. જોડાઓ: {link}',
  },
  appointment_approved: {
    subject: 'એપોઇન્ટમેન્ટ નક્કી થઈ',
    text: 'Telemed: {doctor} એ તમારી {when} ની એપોઇન્ટમેન્ટ નક્કી કરી છે. વિગતો: {link}',
  },
  appointment_rejected: {
    subject: 'એપોઇન્ટમેન્ટની વિનંતી મંજૂર ન થઈ',
    text: 'Telemed: {doctor} તમારી {when} ની વિનંતી મંજૂર કરી શક્યા નથી. કારણ જુઓ અને બીજો સમય પસંદ કરો: {link}',
  },
  appointment_cancelled: {
    subject: 'એપોઇન્ટમેન્ટ રદ થઈ',
    text: 'Telemed: {when} ની એપોઇન્ટમેન્ટ રદ થઈ છે. વિગતો: {link}',
  },
  appointment_reminder: {
    subject: 'વીડિયો સલાહનું રિમાઇન્ડર',
    text: 'Telemed: યાદ રાખો, {doctor} સાથે તમારી વીડિયો સલાહ {when} છે. જોડાઓ: {link}',
  },
  prescription_ready: {
    subject: 'તમારું પ્રિસ્ક્રિપ્શન તૈયાર છે',
    text: 'Telemed: {doctor} એ તમારું પ્રિસ્ક્રિપ્શન આપ્યું છે. ડાઉનલોડ કરો: {link}',
  },
  doctor_no_show: {
    subject: 'તમારા ડૉક્ટર હાજર રહી શક્યા નહીં',
    text: 'Telemed: {doctor} તમારા {when} ના પરામર્શમાં હાજર રહી શક્યા નહીં. અમે દિલગીર છીએ. બીજો સમય બુક કરો: {link}',
  },
  times_proposed: {
    subject: 'તમારા ડૉક્ટરે બીજા સમય સૂચવ્યા છે',
    text: 'Telemed: {doctor} તમારા {when} ના પરામર્શમાં ઉપલબ્ધ નથી અને તેમણે બીજા સમય સૂચવ્યા છે. એક પસંદ કરો અથવા નકારો: {link}',
  },
  waitlist_offer: {
    subject: 'તમારા ડૉક્ટર પાસે એક સમય ખાલી થયો છે',
    text: 'Telemed: {doctor} સાથે {when} નો સમય ખાલી થયો છે અને {minutes} મિનિટ માટે તમારા માટે રાખ્યો છે. બુક કરો: {link}',
  },
  sign_in_code: {
    subject: 'તમારો સાઇન ઇન કોડ',
    text: 'Telemed: {code} તમારો સાઇન ઇન કોડ છે. તે {minutes} મિનિટ માટે માન્ય છે. તે કોઈને કહેશો નહીં.',
  },
  phone_verification_code: {
    subject: 'તમારા મોબાઇલ નંબરની પુષ્ટિ કરો',
    text: 'Telemed: {code} આ નંબરને તમારા ખાતામાં ઉમેરવાનો કોડ છે. તે {minutes} મિનિટ માટે માન્ય છે. તે કોઈને કહેશો નહીં.',
  },
} satisfies MessageTexts;
