import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, Tab, Tabs, Typography, useMediaQuery, useTheme } from '@mui/material';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import LocalHospitalOutlined from '@mui/icons-material/LocalHospitalOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import { ROWS, applySelection, isPast, keyOf, nowMarker, rangeKeys, rowLabel, todayIn, weekDays, weekStart, addDays, type SlotKey } from './model';
import { useUnsavedChanges } from '../../../lib/unsavedChanges';

type CellState = 'selected' | 'booked' | 'past' | 'free';

/** Each state's colours and mark: icons, not emoji (a phone or desktop without an emoji font showed a missing glyph). */
const cellStyle: Record<CellState, { bg: string; fg: string; Mark: SvgIconComponent | null; label: string }> = {
  selected: { bg: '#1976d2', fg: '#fff', Mark: CheckOutlined, label: 'selected' },
  booked: { bg: '#fb8c00', fg: '#fff', Mark: LocalHospitalOutlined, label: 'booked' },
  past: { bg: '#e0e0e0', fg: '#757575', Mark: CloseOutlined, label: 'past' },
  free: { bg: '#fff', fg: '#9e9e9e', Mark: null, label: 'free' },
};

/** A legend entry: the state's mark in its colours, then what it means. */
function LegendEntry({ state, text }: { state: CellState; text: string }) {
  const { bg, fg, Mark } = cellStyle[state];
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <Box component="span" aria-hidden sx={{ display: 'inline-grid', placeItems: 'center', width: 18, height: 18, borderRadius: 0.5, bgcolor: bg, color: fg }}>
        {Mark && <Mark sx={{ fontSize: 14 }} />}
      </Box>
      {text}
    </Box>
  );
}

const dayHeading = (date: string) =>
  new Intl.DateTimeFormat('en-IN', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/**
 * 'Manage Availability Schedule': a week from Sunday, 33 half-hour rows from 6:00, click to toggle, drag within a day
 * to add a range; past and booked slots are locked. On phones, a day picker and a 3-column grid.
 */
export function AvailabilityCalendar({
  open,
  zone,
  initial,
  booked,
  saving,
  onCancel,
  onSave,
}: {
  open: boolean;
  zone: string;
  initial: ReadonlySet<SlotKey>;
  booked: ReadonlySet<SlotKey>;
  saving: boolean;
  onCancel: () => void;
  onSave: (keys: SlotKey[]) => void;
}) {
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'));
  const thisWeek = weekStart(todayIn(zone));
  const [start, setStart] = useState(thisWeek);
  const [selected, setSelected] = useState<Set<SlotKey>>(new Set(initial));
  const [drag, setDrag] = useState<{ date: string; from: number; to: number } | null>(null);
  const [mobileDay, setMobileDay] = useState(0);
  useEffect(() => {
    if (open) {
      setSelected(new Set(initial));
      setStart(thisWeek);
      setMobileDay(Math.max(0, weekDays(thisWeek).indexOf(todayIn(zone)))); // phones open on today
    }
  }, [open, initial, thisWeek, zone]);
  const days = useMemo(() => weekDays(start), [start]);
  // Slots chosen and not saved: Cancel, a click outside, another page or a closed tab asks first.
  const changed = selected.size !== initial.size || [...selected].some((k) => !initial.has(k));
  const { confirmDiscard } = useUnsavedChanges(open && changed);
  const cancel = () => void confirmDiscard().then((discard) => discard && onCancel());
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, [open]);
  const marker = nowMarker(zone, now);
  const locked = (key: SlotKey) => booked.has(key) || isPast(key.slice(0, 10), Number(key.slice(11)), zone);
  const stateOf = (date: string, row: number): CellState => {
    const key = keyOf(date, row);
    if (booked.has(key)) return 'booked';
    if (isPast(date, row, zone)) return 'past';
    const inDrag = drag && drag.date === date && row >= Math.min(drag.from, drag.to) && row <= Math.max(drag.from, drag.to);
    return selected.has(key) || inDrag ? 'selected' : 'free';
  };
  const finishDrag = () => {
    if (!drag) return;
    setSelected((current) => applySelection(current, rangeKeys(drag.date, drag.from, drag.to), locked));
    setDrag(null);
  };
  const cell = (date: string, row: number, onPointer: boolean) => {
    const state = stateOf(date, row);
    const style = cellStyle[state];
    return (
      <Box
        key={keyOf(date, row)}
        role="button"
        tabIndex={state === 'booked' || state === 'past' ? -1 : 0}
        aria-label={`${dayHeading(date)} ${rowLabel(row)} ${style.label}`}
        aria-pressed={state === 'selected'}
        data-slot={keyOf(date, row)}
        onMouseDown={onPointer ? () => !locked(keyOf(date, row)) && setDrag({ date, from: row, to: row }) : undefined}
        onMouseEnter={onPointer ? () => drag && drag.date === date && setDrag({ ...drag, to: row }) : undefined}
        onClick={onPointer ? undefined : () => setSelected((current) => applySelection(current, [keyOf(date, row)], locked))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            setSelected((current) => applySelection(current, [keyOf(date, row)], locked));
          }
        }}
        sx={{
          bgcolor: style.bg,
          color: style.fg,
          border: '1px solid #e0e0e0',
          height: mobile ? 40 : 24,
          fontSize: 12,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 0.5,
          cursor: state === 'booked' || state === 'past' ? 'not-allowed' : 'pointer',
          userSelect: 'none',
          position: 'relative',
        }}
      >
        {mobile && rowLabel(row)}
        {style.Mark && <style.Mark aria-hidden sx={{ fontSize: mobile ? 16 : 14 }} />}
        {marker && marker.date === date && marker.row === row && (
          <Box
            data-testid="now-marker"
            aria-hidden
            sx={{ position: 'absolute', left: 0, right: 0, top: `${marker.fraction * 100}%`, height: 2, bgcolor: 'error.main', pointerEvents: 'none' }}
          />
        )}
      </Box>
    );
  };

  return (
    <Dialog open={open} onClose={cancel} fullWidth maxWidth="lg" fullScreen={mobile}>
      <DialogTitle>Manage Availability Schedule</DialogTitle>
      <DialogContent onMouseUp={finishDrag} onMouseLeave={finishDrag}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <IconButton aria-label="Previous week" disabled={start <= thisWeek} onClick={() => setStart(addDays(start, -7))}>
            ‹
          </IconButton>
          <Typography>
            {dayHeading(days[0]!)} – {dayHeading(days[6]!)}
          </Typography>
          <IconButton aria-label="Next week" onClick={() => setStart(addDays(start, 7))}>
            ›
          </IconButton>
        </Stack>
        <Stack direction="row" spacing={2} sx={{ mb: 1, flexWrap: 'wrap', fontSize: 13 }}>
          <LegendEntry state="booked" text="booked (locked)" />
          <LegendEntry state="past" text="past" />
          <LegendEntry state="selected" text="available" />
        </Stack>
        {mobile ? (
          <>
            <Tabs value={mobileDay} onChange={(_e, v: number) => setMobileDay(v)} variant="scrollable" scrollButtons="auto">
              {days.map((d) => (
                <Tab key={d} label={dayHeading(d)} />
              ))}
            </Tabs>
            <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 0.5, mt: 1 }}>
              {Array.from({ length: ROWS }, (_, row) => cell(days[mobileDay]!, row, false))}
            </Box>
          </>
        ) : (
          <Box sx={{ display: 'grid', gridTemplateColumns: '80px repeat(7, 1fr)', gap: '1px' }}>
            <Box />
            {days.map((d) => (
              <Typography key={d} variant="caption" sx={{ textAlign: 'center', fontWeight: 600 }}>
                {dayHeading(d)}
              </Typography>
            ))}
            {Array.from({ length: ROWS }, (_, row) => (
              <Box key={row} sx={{ display: 'contents' }}>
                <Typography variant="caption" sx={{ textAlign: 'right', pr: 1, lineHeight: '24px' }}>
                  {rowLabel(row)}
                </Typography>
                {days.map((d) => cell(d, row, true))}
              </Box>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Typography sx={{ px: 1 }}>
          Selected: {selected.size} slots • {selected.size * 30} minutes
        </Typography>
        <Box>
          <Button onClick={() => setSelected(new Set([...selected].filter((k) => locked(k))))}>Clear All</Button>
          <Button onClick={cancel}>Cancel</Button>
          <Button variant="contained" disabled={saving} onClick={() => onSave([...selected])}>
            {saving ? 'Saving...' : 'Save Changes'}
          </Button>
        </Box>
      </DialogActions>
    </Dialog>
  );
}
