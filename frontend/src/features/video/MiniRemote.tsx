import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { Box, ButtonBase, Typography } from '@mui/material';
import { useT } from '../../i18n/useT';

/**
 * Whether an element is out of the window. Without IntersectionObserver (old browsers, jsdom) it counts as shown.
 */
export function useScrolledAway(ref: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [away, setAway] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') {
      setAway(false);
      return;
    }
    // Away once less than a fifth of it shows: the picture is then too small to see the other person.
    const observer = new IntersectionObserver(([entry]) => setAway(entry !== undefined && entry.intersectionRatio < 0.2), { threshold: [0, 0.2, 0.5, 1] });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, enabled]);
  return away;
}

/** The small picture's width and distance from the bottom (above the phone's bottom navigation bar), in px. */
const MINI = { phone: { width: 120, bottom: 72 }, wide: { width: 176, bottom: 16 } } as const;

/**
 * The other participant's picture, small and fixed in a corner, while the call's own tile is scrolled out of view (a
 * doctor writing notes or a prescription below the call, or anyone reading the chat on a phone): they stay in sight.
 * Muted: the call's tile, still mounted, plays their sound. A tap scrolls back to the call. `video` is their muted
 * video element (the call view makes it from their stream, or LiveKit's VideoTrack).
 */
export function MiniRemote({ name, video, onBack }: { name: string; video: ReactNode; onBack(): void }) {
  const t = useT();
  return (
    <>
      {/* As tall as the picture and its margin, at the end of the page: what ends the page (an issued prescription's
          Download) can always be scrolled above the picture instead of lying under it. */}
      <Box aria-hidden data-testid="mini-remote-room" sx={{ height: { xs: MINI.phone.width * 0.75 + MINI.phone.bottom + 8, sm: MINI.wide.width * 0.75 + MINI.wide.bottom + 8 } }} />
      <ButtonBase
        onClick={onBack}
        aria-label={t('video.backToCall', { name })}
        data-testid="mini-remote"
        sx={{
          position: 'fixed',
          right: 12,
          bottom: { xs: MINI.phone.bottom, sm: MINI.wide.bottom },
          zIndex: (theme) => theme.zIndex.appBar - 1,
          width: { xs: MINI.phone.width, sm: MINI.wide.width },
          aspectRatio: '4 / 3',
          borderRadius: 2,
          overflow: 'hidden',
          boxShadow: 6,
          bgcolor: '#0d1716',
        }}
      >
        {video}
        <Typography variant="caption" sx={{ position: 'absolute', left: 4, bottom: 4, right: 4, color: 'common.white', bgcolor: 'rgba(0,0,0,0.55)', px: 0.5, borderRadius: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', textAlign: 'left' }}>
          {name}
        </Typography>
      </ButtonBase>
    </>
  );
}
