import { Avatar, type SxProps, type Theme } from '@mui/material';

/** Background colours for initials, each with at least 4.5:1 contrast against white text. */
const COLOURS = ['#0b6e69', '#6a3fa0', '#b4470a', '#0d63a5', '#8a2d5b', '#2f6b1f'] as const;

/**
 * 'Dr.' as the ten languages write it before a name (डॉ., ডাঃ/ডা., ડૉ., டாக்டர்/டாக்., డా./డాక్టర్, ಡಾ., ഡോ., ਡਾ.), longest
 * spelling first.
 */
const DOCTOR_TITLE = /^\s*(dr|डॉ|ডাঃ|ডা|ડૉ|டாக்டர்|டாக்|డాక్టర్|డా|ಡಾ|ഡോ|ਡਾ)\.?\s+/iu;

/** The letters shown for a name: the first letters of its first two words, ignoring a 'Dr.' title. */
export function avatarInitials(name: string): string {
  const words = name
    .replace(DOCTOR_TITLE, '')
    .split(/\s+/)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => Array.from(w)[0]!.toUpperCase())
    .join('');
}

function colourFor(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length]!;
}

/** A doctor's photo when there is one, else their initials on a colour of their own. Decorative: the name is beside it. */
export function DoctorAvatar({ name, photoUrl, size = 48, sx }: { name: string; photoUrl?: string | null; size?: number; sx?: SxProps<Theme> }) {
  return (
    <Avatar
      src={photoUrl ?? undefined}
      alt=""
      aria-hidden
      // A name's letters: not words of the page's language, for a browser's translator as for the pseudo-locale check.
      translate="no"
      sx={[{ width: size, height: size, bgcolor: colourFor(name), color: '#fff', fontSize: size * 0.38, fontWeight: 700 }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {avatarInitials(name)}
    </Avatar>
  );
}
