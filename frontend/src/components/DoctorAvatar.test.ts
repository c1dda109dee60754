import { describe, expect, it } from 'vitest';
import { avatarInitials } from './DoctorAvatar';

describe('avatarInitials', () => {
  it("takes the first letters of the first two words, after a 'Dr.' title in any of the ten languages", () => {
    expect(avatarInitials('Dr. Kavya Rao')).toBe('KR');
    expect(avatarInitials('dr asha')).toBe('A');
    expect(avatarInitials('Drishti Mehta')).toBe('DM');
    for (const name of ['डॉ. कविता राव', 'ডাঃ কবিতা রাও', 'ডা. কবিতা রাও', 'ડૉ. કવિતા રાવ', 'டாக்டர் கவிதா ராவ்', 'డా. కవిత రావు', 'ಡಾ. ಕವಿತಾ ರಾವ್', 'ഡോ. കവിത റാവു', 'ਡਾ. ਕਵਿਤਾ ਰਾਓ']) {
      expect(avatarInitials(name), name).toHaveLength(2);
      expect(avatarInitials(name), name).not.toMatch(/[डডડடడಡഡਡ]/u);
    }
  });
});
