import { useId, useState } from 'react';
import { Box, Button, Chip, Stack, Tab, Tabs, Typography } from '@mui/material';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import type { Slot } from '../features/patient/types';
import { useFormat } from '../i18n/format';
import { useT } from '../i18n/useT';
import { PART_OF_DAY_MESSAGES, groupSlotsByDay, localDate, splitByPartOfDay, type SlotDay } from './slotDays';

interface SlotPickerProps {
  slots: Slot[];
  onPick: (slot: Slot) => void;
  /** Whose slots: names the day tabs for screen readers. */
  doctorName: string;
  /** Shows at most this many times of the selected day, then a '+N more' chip calling onMore with the day. */
  perDay?: number;
  onMore?: (date: string) => void;
  initialDate?: string;
  /** Slots are shown but cannot be picked (e.g. a doctor looking at a colleague's page). */
  disabled?: boolean;
  /** The slot picked so far, shown pressed (a choice confirmed with a button of its own, e.g. a move). */
  selectedId?: number | null;
  /** Several slots picked so far (e.g. times a doctor offers), shown pressed; instead of selectedId. */
  selectedIds?: readonly number[];
  /** One slot that cannot be picked now (e.g. past the most that may be picked). */
  isDisabled?: (slot: Slot) => boolean;
}

function DayLabel({ day }: { day: SlotDay }) {
  const t = useT();
  return (
    <Box component="span" sx={{ display: 'flex', flexDirection: 'column', lineHeight: 1.25 }}>
      <Box component="span" sx={{ fontWeight: 700 }}>
        {day.label}
      </Box>
      <Box component="span" sx={{ fontSize: '0.8rem' }}>
        {day.dayMonth}
      </Box>
      <Box component="span" sx={{ fontSize: '0.75rem', fontWeight: 400 }}>
        {t('patient.slotCount', { count: day.slots.length })}
      </Box>
    </Box>
  );
}

/** A doctor's open slots as a strip of day tabs; the chosen day's times grouped into morning, afternoon and evening. */
export function SlotPicker({ slots, onPick, doctorName, perDay = Number.POSITIVE_INFINITY, onMore, initialDate, disabled = false, selectedId, selectedIds, isDisabled }: SlotPickerProps) {
  const id = useId();
  const t = useT();
  const f = useFormat();
  const days = groupSlotsByDay(slots, localDate(new Date()), { locale: f.locale, today: t('patient.today'), tomorrow: t('patient.tomorrow') });
  const [chosen, setChosen] = useState(initialDate);
  if (days.length === 0) return null;
  const day = days.find((d) => d.date === chosen) ?? days[0]!;
  const shown = day.slots.slice(0, perDay);
  const hidden = day.slots.length - shown.length;
  return (
    <Box>
      <Tabs
        value={day.date}
        onChange={(_e, value: string) => setChosen(value)}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label={t('patient.daysWithSlotsFor', { doctor: doctorName })}
        sx={{ borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { minWidth: 76, px: 1.5, py: 1 } }}
      >
        {days.map((d) => (
          <Tab key={d.date} value={d.date} label={<DayLabel day={d} />} id={`${id}-tab-${d.date}`} aria-controls={`${id}-panel`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${day.date}`} sx={{ pt: 1.5 }}>
        <Stack spacing={1.5}>
          {splitByPartOfDay(shown).map(({ part, slots: partSlots }) => (
            <Box key={part}>
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600, display: 'block', mb: 0.5 }}>
                {t(PART_OF_DAY_MESSAGES[part])}
              </Typography>
              <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(92px, 1fr))', gap: 1 }}>
                {partSlots.map((slot) => {
                  const time = f.timeOfDay(new Date(slot.start_at));
                  const selected = selectedIds ? selectedIds.includes(slot.slot_id) : selectedId === undefined ? undefined : slot.slot_id === selectedId;
                  return (
                    <Button
                      key={slot.slot_id}
                      variant={selected ? 'contained' : 'outlined'}
                      size="small"
                      disabled={disabled || (isDisabled?.(slot) ?? false)}
                      aria-pressed={selected}
                      data-slot-id={slot.slot_id}
                      aria-label={t('patient.slotTimeOnDay', { time, day: day.longLabel })}
                      onClick={() => onPick(slot)}
                    >
                      {time}
                    </Button>
                  );
                })}
              </Box>
            </Box>
          ))}
          {hidden > 0 && onMore && (
            <Box>
              <Chip
                icon={<EventAvailableOutlined />}
                label={t('patient.moreCount', { count: hidden })}
                onClick={() => onMore(day.date)}
                aria-label={t('patient.moreSlotsOn', { count: hidden, day: day.longLabel })}
              />
            </Box>
          )}
        </Stack>
      </Box>
    </Box>
  );
}
