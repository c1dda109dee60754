import { useEffect, useId, useRef, useState } from 'react';
import { Box, Chip, List, ListItemButton, Paper, TextField, Typography } from '@mui/material';
import type { MedicineSuggestion } from '@telemed/contracts';
import { compactMedicineText } from '@telemed/contracts/medicine-search';
import { useT } from '../../i18n/useT';
import { recordsApi } from './api';
import { MEDICINE_SEARCH } from './rules';

/** A brand's suggestion names its generic composition under it; a generic's name is its generic. */
const isBrand = (m: MedicineSuggestion) => Boolean(m.generic_name) && compactMedicineText(m.generic_name) !== compactMedicineText(m.name);

/**
 * The builder's medicine field (seed 001 §2, §5, §9): suggestions from GET /medicines/search from 2 characters,
 * 300 ms after the last key; ArrowDown/ArrowUp move, Enter picks, Escape closes; the list closes 150 ms after blur
 * (so that a click on a suggestion lands first). A combobox in the ARIA sense.
 */
export function MedicineSearch(props: { value: string; onChange(text: string): void; onPick(medicine: MedicineSuggestion): void; disabled?: boolean }) {
  const t = useT();
  const [suggestions, setSuggestions] = useState<MedicineSuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const picked = useRef<string | null>(null);
  const blurTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const listId = useId();

  useEffect(() => {
    const q = props.value.trim();
    if (q.length < MEDICINE_SEARCH.minChars || q === picked.current) {
      setSuggestions([]);
      setOpen(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void recordsApi.searchMedicines(q, controller.signal).then((list) => {
        if (controller.signal.aborted) return;
        setSuggestions(list);
        setActive(-1);
        setOpen(list.length > 0);
      });
    }, MEDICINE_SEARCH.debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [props.value]);

  useEffect(() => () => clearTimeout(blurTimer.current), []);

  const pick = (medicine: MedicineSuggestion) => {
    picked.current = medicine.name;
    props.onPick(medicine);
    setOpen(false);
    setActive(-1);
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <TextField
        fullWidth
        required
        label={t('records.medicine')}
        value={props.value}
        disabled={props.disabled}
        autoComplete="off"
        onChange={(e) => {
          picked.current = null;
          props.onChange(e.target.value);
        }}
        onFocus={() => {
          clearTimeout(blurTimer.current);
          if (suggestions.length > 0) setOpen(true);
        }}
        onBlur={() => {
          blurTimer.current = setTimeout(() => setOpen(false), MEDICINE_SEARCH.closeAfterBlurMs);
        }}
        onKeyDown={(e) => {
          if (!open || suggestions.length === 0) return;
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((i) => (i + 1) % suggestions.length);
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1));
          } else if (e.key === 'Enter') {
            if (active >= 0) {
              e.preventDefault();
              pick(suggestions[active]!);
            }
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
            setActive(-1);
          }
        }}
        slotProps={{
          htmlInput: {
            role: 'combobox',
            'aria-expanded': open,
            'aria-controls': listId,
            'aria-autocomplete': 'list',
            'aria-activedescendant': open && active >= 0 ? `${listId}-${active}` : undefined,
            maxLength: 200,
          },
        }}
      />
      {open && (
        <Paper elevation={6} sx={{ position: 'absolute', zIndex: 10, left: 0, right: 0, mt: 0.5, maxHeight: 280, overflowY: 'auto' }}>
          <List id={listId} role="listbox" aria-label={t('records.medicineSuggestions')} dense disablePadding>
            {suggestions.map((m, i) => (
              <ListItemButton
                key={m.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                selected={i === active}
                // Keeps the focus in the field, so that the blur timer does not race the click.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(m)}
                sx={{ display: 'block' }}
              >
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {m.name}
                  {m.tpg_list === 'prohibited' && <Chip component="span" size="small" color="error" label={t('records.notByTeleconsultation')} sx={{ ml: 1 }} />}
                </Typography>
                {isBrand(m) && (
                  <Typography variant="body2" component="div" data-testid="suggestion-generic">
                    {m.generic_name.toUpperCase()}
                  </Typography>
                )}
                <Typography variant="caption" color="text.secondary">
                  {[m.strength, m.dosage_form, m.manufacturer, m.tpg_list && m.tpg_list !== 'prohibited' ? t('records.tpgList', { list: m.tpg_list }) : null].filter(Boolean).join(' · ')}
                </Typography>
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
    </Box>
  );
}
