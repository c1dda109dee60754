import type { MessageTexts } from './types';

export default {
  appointment_requested: {
    subject: 'പുതിയ അപ്പോയിന്റ്മെന്റ് അഭ്യർത്ഥന',
    text: 'Telemed: {when} സമയത്തേക്ക് പുതിയ അപ്പോയിന്റ്മെന്റ് അഭ്യർത്ഥന ലഭിച്ചു. അംഗീകരിക്കുക അല്ലെങ്കിൽ നിരസിക്കുക: {link}',
  },
  patient_waiting: {
    subject: 'നിങ്ങളുടെ രോഗി കാത്തിരിക്കുന്നു',
    text: 'Telemed: {when}-നുള്ള നിങ്ങളുടെ രോഗി കൺസൾട്ടേഷനായി വെയ്റ്റിങ് റൂമിൽ കാത്തിരിക്കുന്നു. ചേരുക: {link}',
  },
  appointment_approved: {
    subject: 'അപ്പോയിന്റ്മെന്റ് സ്ഥിരീകരിച്ചു',
    text: 'Telemed: {when}-നുള്ള നിങ്ങളുടെ അപ്പോയിന്റ്മെന്റ് {doctor} സ്ഥിരീകരിച്ചു. വിശദാംശങ്ങൾ: {link}',
  },
  appointment_rejected: {
    subject: 'അപ്പോയിന്റ്മെന്റ് അഭ്യർത്ഥന അംഗീകരിച്ചില്ല',
    text: 'Telemed: {when}-നുള്ള നിങ്ങളുടെ അഭ്യർത്ഥന അംഗീകരിക്കാനാവില്ലെന്ന് {doctor} അറിയിച്ചു. കാരണം കാണുക, മറ്റൊരു സമയം തിരഞ്ഞെടുക്കുക: {link}',
  },
  appointment_cancelled: {
    subject: 'അപ്പോയിന്റ്മെന്റ് റദ്ദാക്കി',
    text: 'Telemed: {when}-നുള്ള അപ്പോയിന്റ്മെന്റ് റദ്ദാക്കി. വിശദാംശങ്ങൾ: {link}',
  },
  appointment_reminder: {
    subject: 'കൺസൾട്ടേഷൻ ഓർമ്മപ്പെടുത്തൽ',
    text: 'Telemed: ഓർമ്മിക്കുക, {doctor} നിങ്ങളുടെ കൺസൾട്ടേഷൻ {when}-ന് നടത്തും. ചേരുക: {link}',
  },
  prescription_ready: {
    subject: 'നിങ്ങളുടെ കുറിപ്പടി തയ്യാറാണ്',
    text: 'Telemed: {doctor} നിങ്ങളുടെ കുറിപ്പടി നൽകി. ഡൗൺലോഡ് ചെയ്യുക: {link}',
  },
  doctor_no_show: {
    subject: 'നിങ്ങളുടെ ഡോക്ടർക്ക് പങ്കെടുക്കാനായില്ല',
    text: 'Telemed: {doctor}-ന് നിങ്ങളുടെ {when}-ലെ കൺസൾട്ടേഷനിൽ പങ്കെടുക്കാനായില്ല. ക്ഷമിക്കണം. മറ്റൊരു സമയം ബുക്ക് ചെയ്യുക: {link}',
  },
  sign_in_code: {
    subject: 'നിങ്ങളുടെ സൈൻ ഇൻ കോഡ്',
    text: 'Telemed: {code} ആണ് നിങ്ങളുടെ സൈൻ ഇൻ കോഡ്. ഇത് {minutes} മിനിറ്റ് നേരത്തേക്ക് സാധുവാണ്. ഇത് ആരോടും പറയരുത്.',
  },
  phone_verification_code: {
    subject: 'നിങ്ങളുടെ മൊബൈൽ നമ്പർ സ്ഥിരീകരിക്കുക',
    text: 'Telemed: ഈ നമ്പർ നിങ്ങളുടെ അക്കൗണ്ടിൽ ചേർക്കാനുള്ള കോഡ് {code} ആണ്. ഇത് {minutes} മിനിറ്റ് നേരത്തേക്ക് സാധുവാണ്. ഇത് ആരോടും പറയരുത്.',
  },
} satisfies MessageTexts;
