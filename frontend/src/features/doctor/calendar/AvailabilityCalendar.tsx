import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, Tab, Tabs, Typography, useMediaQuery, useTheme } from '@mui/material';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import LocalHospitalOutlined from '@mui/icons-material/LocalHospitalOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import { FIRST_ROW_MINUTES, ROWS, SLOT_MINUTES, keyOf, nowMarker, rowLabel, todayIn, weekDays, weekStart, addDays, type SlotKey } from './model';
import { useSlotSelection, type CellState } from './useSlotSelection';
import { useUnsavedChanges } from '../../../lib/unsavedChanges';
import { useT } from '../../../i18n/useT';
import { useFormat, type Format } from '../../../i18n/format';
import { useLanguage } from '../../../i18n/I18nProvider';

/** Each state's colours and mark: icons, not emoji (a phone or desktop without an emoji font showed a missing glyph). */
const cellStyle: Record<CellState, { bg: string; fg: string; Mark: SvgIconComponent | null }> = {
  selected: { bg: '#1976d2', fg: '#fff', Mark: CheckOutlined },
  booked: { bg: '#fb8c00', fg: '#fff', Mark: LocalHospitalOutlined },
  past: { bg: '#e0e0e0', fg: '#757575', Mark: CloseOutlined },
  free: { bg: '#fff', fg: '#9e9e9e', Mark: null },
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

/** 'Sun, 6 Dec' in the chosen language. */
const dayHeading = (f: Format, date: string) => f.date(date, { weekday: 'short', day: 'numeric', month: 'short' });

/**
 * A row's start as the grid labels it: the seeds' '6:00 AM' in English, the chosen language's time of day in the others
 * (the same words as every other time on the screens).
 */
function useRowLabel(): (row: number) => string {
  const f = useFormat();
  const { language } = useLanguage();
  return (row) => (language === 'en' ? rowLabel(row) : f.timeOfDay(new Date(Date.UTC(2000, 0, 1, 0, FIRST_ROW_MINUTES + row * SLOT_MINUTES)), 'UTC'));
}

/** The time now, renewed every minute while the dialog is open (for the now marker). */
function useMinuteClock(open: boolean): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, [open]);
  return now;
}

/**
 * One half-hour slot: a button in its state's colours. With a pointer (`onPointer`) a press starts a drag and an entry
 * extends it; without one (phones) a click toggles; Enter or Space toggles either way.
 */
function SlotCell({
  date,
  row,
  onPointer,
  state,
  mobile,
  markerFraction,
  onDragStart,
  onDragEnter,
  onToggle,
}: {
  date: string;
  row: number;
  onPointer: boolean;
  state: CellState;
  mobile: boolean;
  /** Where in this slot the now line is (0 to 1), or null when now is not in it. */
  markerFraction: number | null;
  onDragStart(): void;
  onDragEnter(): void;
  onToggle(): void;
}) {
  const t = useT();
  const f = useFormat();
  const label = useRowLabel();
  const style = cellStyle[state];
  return (
    <Box
      role="button"
      tabIndex={state === 'booked' || state === 'past' ? -1 : 0}
      aria-label={t('doctor.slotLabel', { day: dayHeading(f, date), time: label(row), state })}
      aria-pressed={state === 'selected'}
      data-slot={keyOf(date, row)}
      onMouseDown={onPointer ? onDragStart : undefined}
      onMouseEnter={onPointer ? onDragEnter : undefined}
      onClick={onPointer ? undefined : onToggle}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onToggle();
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
      {mobile && label(row)}
      {style.Mark && <style.Mark aria-hidden sx={{ fontSize: mobile ? 16 : 14 }} />}
      {markerFraction !== null && (
        <Box data-testid="now-marker" aria-hidden sx={{ position: 'absolute', left: 0, right: 0, top: `${markerFraction * 100}%`, height: 2, bgcolor: 'error.main', pointerEvents: 'none' }} />
      )}
    </Box>
  );
}

/** The week shown, with the buttons to the previous (not before this week) and next ones. */
function WeekNavigation({ days, canGoBack, onPrevious, onNext }: { days: string[]; canGoBack: boolean; onPrevious(): void; onNext(): void }) {
  const t = useT();
  const f = useFormat();
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
      <IconButton aria-label={t('doctor.previousWeek')} disabled={!canGoBack} onClick={onPrevious}>
        ‹
      </IconButton>
      <Typography>{t('doctor.weekRange', { from: dayHeading(f, days[0]!), to: dayHeading(f, days[6]!) })}</Typography>
      <IconButton aria-label={t('doctor.nextWeek')} onClick={onNext}>
        ›
      </IconButton>
    </Stack>
  );
}

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
  const t = useT();
  const f = useFormat();
  const label = useRowLabel();
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'));
  const thisWeek = weekStart(todayIn(zone));
  const [start, setStart] = useState(thisWeek);
  const selection = useSlotSelection(zone, initial, booked);
  const { selected, replace } = selection;
  const [mobileDay, setMobileDay] = useState(0);
  useEffect(() => {
    if (open) {
      replace(new Set(initial));
      setStart(thisWeek);
      setMobileDay(Math.max(0, weekDays(thisWeek).indexOf(todayIn(zone)))); // phones open on today
    }
  }, [open, initial, thisWeek, zone, replace]);
  const days = useMemo(() => weekDays(start), [start]);
  // Slots chosen and not saved: Cancel, a click outside, another page or a closed tab asks first.
  const changed = selected.size !== initial.size || [...selected].some((k) => !initial.has(k));
  const { confirmDiscard } = useUnsavedChanges(open && changed);
  const cancel = () => void confirmDiscard().then((discard) => discard && onCancel());
  const marker = nowMarker(zone, useMinuteClock(open));
  const cell = (date: string, row: number, onPointer: boolean) => (
    <SlotCell
      key={keyOf(date, row)}
      date={date}
      row={row}
      onPointer={onPointer}
      state={selection.stateOf(date, row)}
      mobile={mobile}
      markerFraction={marker && marker.date === date && marker.row === row ? marker.fraction : null}
      onDragStart={() => selection.startDrag(date, row)}
      onDragEnter={() => selection.extendDrag(date, row)}
      onToggle={() => selection.toggle(date, row)}
    />
  );

  return (
    <Dialog open={open} onClose={cancel} fullWidth maxWidth="lg" fullScreen={mobile}>
      <DialogTitle>{t('doctor.manageAvailability')}</DialogTitle>
      <DialogContent onMouseUp={selection.finishDrag} onMouseLeave={selection.finishDrag}>
        <WeekNavigation days={days} canGoBack={start > thisWeek} onPrevious={() => setStart(addDays(start, -7))} onNext={() => setStart(addDays(start, 7))} />
        <Stack direction="row" spacing={2} sx={{ mb: 1, flexWrap: 'wrap', fontSize: 13 }}>
          <LegendEntry state="booked" text={t('doctor.legendBooked')} />
          <LegendEntry state="past" text={t('doctor.legendPast')} />
          <LegendEntry state="selected" text={t('doctor.legendAvailable')} />
        </Stack>
        {mobile ? (
          <>
            <Tabs value={mobileDay} onChange={(_e, v: number) => setMobileDay(v)} variant="scrollable" scrollButtons="auto">
              {days.map((d) => (
                <Tab key={d} label={dayHeading(f, d)} />
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
                {dayHeading(f, d)}
              </Typography>
            ))}
            {Array.from({ length: ROWS }, (_, row) => (
              <Box key={row} sx={{ display: 'contents' }}>
                <Typography variant="caption" sx={{ textAlign: 'right', pr: 1, lineHeight: '24px' }}>
                  {label(row)}
                </Typography>
                {days.map((d) => cell(d, row, true))}
              </Box>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Typography sx={{ px: 1 }}>{t('doctor.selectedSummary', { slots: selected.size, minutes: selected.size * SLOT_MINUTES })}</Typography>
        <Box>
          <Button onClick={selection.clearAll}>{t('doctor.clearAll')}</Button>
          <Button onClick={cancel}>{t('doctor.cancel')}</Button>
          <Button variant="contained" disabled={saving} onClick={() => onSave([...selected])}>
            {t(saving ? 'doctor.saving' : 'doctor.saveChanges')}
          </Button>
        </Box>
      </DialogActions>
    </Dialog>
  );
}
