import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import { MAX_NOTES_LENGTH } from '@telemed/contracts/constants';
import { useFormat } from '../../i18n/format';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import { useToasts } from '../../lib/toasts';
import { useConfirm } from '../../lib/confirm';
import { useNow } from '../../lib/useNow';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useWaitlistActions, type WaitlistPlace } from './waitlist';

type Offer = NonNullable<WaitlistPlace['offer']>;

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };

/** The days of a place as the patient chose them ('8 Dec – 14 Dec', at most 30 days apart): calendar dates, in no zone. */
function useDays() {
  const f = useFormat();
  return (place: WaitlistPlace) => ({ from: f.date(place.from, DAY), to: f.date(place.to, DAY) });
}

/** Booking the held time: the reason for the visit, as any request asks it. */
function BookOfferDialog({ open, place, offer, onClose }: { open: boolean; place: WaitlistPlace; offer: Offer; onClose(): void }) {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const { accept } = useWaitlistActions();
  const [notes, setNotes] = useState('');
  useEffect(() => {
    if (open) {
      setNotes('');
      accept.reset();
    }
    // Only on opening: a reason written earlier and the last answer are cleared.
  }, [open]);
  const { confirmDiscard } = useUnsavedChanges(open && notes.trim() !== '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!notes.trim()) return;
    accept.mutate({ doctorId: place.doctor_id, doctorName: place.doctor_name, notes }, { onSuccess: onClose });
  };
  return (
    <Dialog open={open} onClose={() => void confirmDiscard().then((discard) => discard && onClose())} fullWidth maxWidth="xs" aria-labelledby="book-offer-title">
      <Stack component="form" onSubmit={submit}>
        <DialogTitle id="book-offer-title">{t('waitlist.bookTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('waitlist.bookIntro', { doctor: place.doctor_name, when: f.whenPhrase(offer.start_at), until: f.timeOfDay(new Date(offer.until)) })}</DialogContentText>
          <TextField
            label={t('waitlist.reasonForVisit')}
            required
            multiline
            minRows={3}
            fullWidth
            sx={{ mt: 2 }}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_NOTES_LENGTH } }}
          />
          {accept.error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {explain(accept.error, 'waitlist.bookFailed')}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('waitlist.notNow')}</Button>
          <Button type="submit" variant="contained" disabled={accept.isPending || !notes.trim()}>
            {t('waitlist.sendRequest')}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}

/**
 * A patient's place on one doctor's waitlist: the days it covers and, while a freed time is held for them, that time,
 * until when, and the choice to book it or let it go. `named`: the doctor's name is said (a list of places), not when
 * the place sits on that doctor's own card.
 */
export function WaitlistPlaceCard({ place, named = false }: { place: WaitlistPlace; named?: boolean }) {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const toasts = useToasts();
  const confirm = useConfirm();
  const days = useDays()(place);
  const { leave, decline } = useWaitlistActions();
  const [booking, setBooking] = useState(false);
  const now = useNow(10_000);
  // An offer whose time has passed is shown as waiting at once; the server's own end of it follows.
  const offer = place.offer && new Date(place.offer.until).getTime() > now ? place.offer : null;
  const failed = (fallback: 'waitlist.leaveFailed' | 'waitlist.declineFailed') => (error: unknown) => toasts.show({ type: 'error', title: explain(error, fallback) });
  const askLeave = async () => {
    const ok = await confirm({
      title: t('waitlist.leaveQuestion'),
      message: t('waitlist.leaveConfirm', { doctor: place.doctor_name }),
      confirmLabel: t('waitlist.leave'),
      cancelLabel: t('waitlist.stay'),
      destructive: true,
    });
    if (ok) leave.mutate(place.doctor_id, { onError: failed('waitlist.leaveFailed') });
  };
  return (
    <Box data-testid="waitlist-place" sx={{ mt: 1.5 }}>
      {offer ? (
        <Alert
          severity="success"
          icon={false}
          sx={{ '& .MuiAlert-message': { width: '100%' } }}
          data-testid="waitlist-offer"
        >
          <Typography sx={{ fontWeight: 600 }}>{named ? t('waitlist.offerTitleNamed', { doctor: place.doctor_name }) : t('waitlist.offerTitle')}</Typography>
          <Typography variant="body2">{t('waitlist.offerText', { when: f.whenPhrase(offer.start_at), until: f.timeOfDay(new Date(offer.until)) })}</Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
            <Button variant="contained" size="small" onClick={() => setBooking(true)}>
              {t('waitlist.bookIt')}
            </Button>
            <Button size="small" disabled={decline.isPending} onClick={() => decline.mutate(place.doctor_id, { onError: failed('waitlist.declineFailed') })}>
              {t('waitlist.letItGo')}
            </Button>
          </Stack>
          <BookOfferDialog open={booking} place={place} offer={offer} onClose={() => setBooking(false)} />
        </Alert>
      ) : (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <HourglassEmptyOutlined fontSize="small" color="action" aria-hidden />
          <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 200px' }}>
            {named ? t('waitlist.waitingNamed', { doctor: place.doctor_name, ...days }) : t('waitlist.waiting', days)}
          </Typography>
          <Button size="small" color="inherit" disabled={leave.isPending} onClick={() => void askLeave()}>
            {t('waitlist.leave')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
