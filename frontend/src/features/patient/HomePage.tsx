import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogContent,
  Grid,
  InputAdornment,
  List,
  MenuItem,
  ListItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import PersonAddAlt1Outlined from '@mui/icons-material/PersonAddAlt1Outlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import { LANGUAGES, isLanguageCode, type LanguageCode } from '@telemed/contracts/languages';
import { call } from '../../lib/client';
import { browserZone } from '../../lib/time';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';
import { DoctorAvatar } from '../../components/DoctorAvatar';
import { EmptyState } from '../../components/EmptyState';
import { ClosableTitle } from '../../components/ClosableTitle';
import { SlotPicker } from '../../components/SlotPicker';
import { TruncatedText } from '../../components/TruncatedText';
import { matchesSearch, upcoming, type Doctor, type DoctorWithSlots, type Slot } from './types';
import { confirmPath } from './confirmPath';
import { PendingInvitations } from '../institution/Invitations';
import { RecordsTiles } from '../records/RecordsTiles';
import { JoinWaitlistDialog } from '../waitlist/JoinWaitlistDialog';
import { WaitlistPlaceCard } from '../waitlist/WaitlistPlaceCard';
import { CreditsCard } from '../wallet/CreditsCard';
import { noTimeSoon, useMyWaitlist, type WaitlistPlace } from '../waitlist/waitlist';

export const HOME_SLOTS_SHOWN = 4;
export const ADD_MODAL_SLOTS_SHOWN = 3;
/** A doctor who takes no bookings (inactive, or deactivated by an institution): said on their card instead of slots. */
export const NOT_ACCEPTING_BOOKINGS = 'patient.notAcceptingBookings' satisfies MessageId;

/** The add modal's preview: the first few upcoming times as chips (the seeds' 3 and '+N more'). */
function SlotChips({ doctor, slots, shown }: { doctor: Doctor; slots: Slot[]; shown: number }) {
  const navigate = useNavigate();
  const t = useT();
  const f = useFormat();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 1 }}>
      {slots.slice(0, shown).map((slot) => (
        <Chip key={slot.slot_id} label={f.whenPhrase(slot.start_at)} color="primary" variant="outlined" onClick={() => navigate(confirmPath(doctor, slot))} />
      ))}
      {slots.length > shown && <Chip label={t('patient.moreCount', { count: slots.length - shown })} />}
    </Stack>
  );
}

/** Specialty, qualification and registration on one line each, cut with the whole text on hover. */
function DoctorFacts({ doctor }: { doctor: Doctor }) {
  const t = useT();
  const line = [doctor.specialty, doctor.qualification].filter(Boolean).join(' · ');
  return (
    <>
      {line && <TruncatedText text={line} color="text.secondary" variant="body2" />}
      {doctor.registration_number && <TruncatedText text={t('patient.registration', { number: doctor.registration_number })} color="text.secondary" variant="body2" />}
    </>
  );
}

/** In place of a doctor's slots while they take no bookings, so nobody clicks through to a refusal. */
function NotAccepting() {
  const t = useT();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary', mt: 1 }} data-testid="not-accepting">
      <EventBusyOutlined fontSize="small" aria-hidden />
      <Typography variant="body2" color="text.secondary">
        {t(NOT_ACCEPTING_BOOKINGS)}
      </Typography>
    </Stack>
  );
}

function AddDoctorModal({ open, onClose, mine }: { open: boolean; onClose: () => void; mine: Set<string> }) {
  const [search, setSearch] = useState('');
  // Discovery by the language a patient is at ease in (issue 33): the server lists only doctors who consult in it.
  const [language, setLanguage] = useState<LanguageCode | ''>('');
  const queryClient = useQueryClient();
  const t = useT();
  const f = useFormat();
  // The modal reloads its doctor list each time it opens.
  const doctors = useQuery({
    queryKey: ['doctors', 'all', open, language],
    enabled: open,
    queryFn: async () => {
      const list = await call('listDoctors', { query: { skip: 0, limit: 100, ...(language ? { language } : {}) } }).catch(() => []);
      return Promise.all(
        list.map(async (d) => ({
          ...d,
          // A doctor who takes no bookings has no slot to offer: not asked for.
          availableSlots: d.accepting_bookings === false
            ? []
            : await call('getDoctorAvailableSlots', { params: { doctor_id: d.doctor_id }, query: { timezone_str: browserZone() } })
                .then((r) => upcoming(r.slots))
                .catch(() => []),
        })),
      );
    },
  });
  const subscribe = useMutation({
    mutationFn: (doctorId: string) => call('subscribeToDoctor', { body: { doctor_id: doctorId } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['doctors', 'me'] });
      onClose();
    },
  });
  const visible = (doctors.data ?? []).filter((d) => matchesSearch(d, search));
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="add-doctor-title">
      <ClosableTitle id="add-doctor-title" onClose={onClose}>
        {t('patient.addADoctor')}
      </ClosableTitle>
      <DialogContent>
        <TextField
          fullWidth
          label={t('patient.searchDoctors')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ mt: 1, mb: 2 }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchOutlined aria-hidden /></InputAdornment> } }}
        />
        <TextField
          select
          fullWidth
          size="small"
          label={t('patient.doctorLanguage')}
          value={language}
          onChange={(e) => setLanguage(isLanguageCode(e.target.value) ? e.target.value : '')}
          sx={{ mb: 2 }}
          data-testid="doctor-language"
        >
          <MenuItem value="">{t('patient.anyLanguage')}</MenuItem>
          {LANGUAGES.map((l) => (
            <MenuItem key={l.code} value={l.code} lang={l.code}>
              {l.nativeName}
            </MenuItem>
          ))}
        </TextField>
        {doctors.isLoading && <CircularProgress aria-label={t('patient.loadingDoctors')} />}
        {!doctors.isLoading && visible.length === 0 && (
          <EmptyState icon={SearchOutlined} text={t(search ? 'patient.noDoctorsMatch' : 'patient.noDoctorsAvailable')} />
        )}
        <List>
          {visible.map((doctor) => (
            <ListItem key={doctor.doctor_id} divider sx={{ display: 'block', px: 0 }}>
              {/* The button goes under the doctor when the line is short (a phone, a long word in Tamil): the name never shrinks to nothing. */}
              <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1.5, rowGap: 1 }}>
                <DoctorAvatar name={doctor.name} size={40} />
                <Box sx={{ minWidth: 0, flex: '1 1 160px' }}>
                  <TruncatedText text={doctor.name} sx={{ fontWeight: 600 }} />
                  <TruncatedText text={`${doctor.specialty} · ${doctor.qualification} · ${f.rupees(doctor.consultation_fee)}`} variant="body2" color="text.secondary" />
                </Box>
                <Button
                  variant="contained"
                  size="small"
                  startIcon={<PersonAddAlt1Outlined />}
                  sx={{ flexShrink: 0, ml: 'auto' }}
                  disabled={doctor.availableSlots.length === 0 || mine.has(doctor.doctor_id) || subscribe.isPending}
                  onClick={() => doctor.availableSlots.length > 0 && subscribe.mutate(doctor.doctor_id)}
                >
                  {t(mine.has(doctor.doctor_id) ? 'patient.added' : 'patient.addDoctor')}
                </Button>
              </Stack>
              {doctor.accepting_bookings === false ? (
                <NotAccepting />
              ) : doctor.availableSlots.length > 0 ? (
                <SlotChips doctor={doctor} slots={doctor.availableSlots} shown={ADD_MODAL_SLOTS_SHOWN} />
              ) : (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  {doctor.phone_number ? t('patient.contactDoctorAt', { phone: doctor.phone_number }) : t('patient.notApplicable')}
                </Typography>
              )}
            </ListItem>
          ))}
        </List>
      </DialogContent>
    </Dialog>
  );
}

/**
 * One of the patient's doctors: who they are, the fee, their open slots by day, and their waitlist (issue 35): the
 * patient's place on it, or the offer to join when the doctor has no time in the coming days.
 */
function DoctorCard({ doctor, place, onMore, onJoin }: { doctor: DoctorWithSlots; place: WaitlistPlace | undefined; onMore: (date: string) => void; onJoin: () => void }) {
  const navigate = useNavigate();
  const t = useT();
  const f = useFormat();
  return (
    <Card data-testid="my-doctor">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', mb: 1.5 }}>
          <DoctorAvatar name={doctor.name} size={56} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <TruncatedText text={doctor.name} variant="h6" component="h2" />
            <DoctorFacts doctor={doctor} />
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              <Box component="span" sx={{ fontWeight: 700 }} data-testid="doctor-fee">
                {f.rupees(doctor.consultation_fee)}
              </Box>{' '}
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {t('patient.perConsultation')}
              </Box>
            </Typography>
          </Box>
        </Stack>
        {doctor.accepting_bookings === false ? (
          <NotAccepting />
        ) : doctor.availableSlots.length > 0 ? (
          <SlotPicker slots={doctor.availableSlots} doctorName={doctor.name} perDay={HOME_SLOTS_SHOWN} onMore={onMore} onPick={(slot) => navigate(confirmPath(doctor, slot))} />
        ) : (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
            <EventBusyOutlined fontSize="small" aria-hidden />
            <Typography variant="body2" color="text.secondary">
              {t('patient.noUpcomingSlots')}
            </Typography>
          </Stack>
        )}
        {doctor.accepting_bookings !== false &&
          (place ? (
            <WaitlistPlaceCard place={place} />
          ) : (
            noTimeSoon(doctor.availableSlots) && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mt: 1.5 }}>
                <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 200px' }}>
                  {t('waitlist.suggest')}
                </Typography>
                <Button size="small" variant="outlined" startIcon={<NotificationsActiveOutlined />} onClick={onJoin}>
                  {t('waitlist.joinButton')}
                </Button>
              </Stack>
            )
          ))}
      </CardContent>
    </Card>
  );
}

/** Patient home: credits, the patient's doctors with their open slots by day, and records tiles. */
export function HomePage() {
  const navigate = useNavigate();
  const t = useT();
  const [adding, setAdding] = useState(false);
  const [allSlotsOf, setAllSlotsOf] = useState<{ doctor: DoctorWithSlots; date: string } | null>(null);
  const mine = useQuery({
    queryKey: ['doctors', 'me'],
    queryFn: async () => {
      const result = await call('listMyDoctors', { query: { timezone_str: browserZone() } }).catch(() => []);
      return (Array.isArray(result) ? result : [result]).map((d) => ({ ...d, availableSlots: upcoming(d.availableSlots) }));
    },
  });
  const doctors = mine.data ?? [];
  const places = useMyWaitlist();
  const [joining, setJoining] = useState<{ open: boolean; doctor: DoctorWithSlots | null }>({ open: false, doctor: null });
  return (
    <Stack spacing={3}>
      <PendingInvitations />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <CreditsCard />
        </Grid>
        <RecordsTiles
          wrap={(tile, key) => (
            <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
              {tile}
            </Grid>
          )}
        />
      </Grid>
      <Box>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1.5, gap: 1 }}>
          <Typography variant="h5" component="h1">
            {t('patient.yourDoctors')}
          </Typography>
          <Button variant="contained" startIcon={<PersonAddAlt1Outlined />} onClick={() => setAdding(true)}>
            {t('patient.addDoctor')}
          </Button>
        </Stack>
        {mine.isLoading && <CircularProgress aria-label={t('patient.loadingYourDoctors')} />}
        {!mine.isLoading && doctors.length === 0 && (
          <EmptyState icon={GroupsOutlined} text={t('patient.noDoctorsYet')} />
        )}
        <Stack spacing={2}>
          {doctors.map((doctor) => (
            <DoctorCard
              key={doctor.doctor_id}
              doctor={doctor}
              place={places.data?.find((p) => p.doctor_id === doctor.doctor_id)}
              onMore={(date) => setAllSlotsOf({ doctor, date })}
              onJoin={() => setJoining({ open: true, doctor })}
            />
          ))}
        </Stack>
      </Box>
      <JoinWaitlistDialog
        open={joining.open}
        doctor={joining.doctor ? { doctor_id: joining.doctor.doctor_id, name: joining.doctor.name } : null}
        onClose={() => setJoining((j) => ({ ...j, open: false }))}
      />
      <AddDoctorModal open={adding} onClose={() => setAdding(false)} mine={new Set(doctors.map((d) => d.doctor_id))} />
      <Dialog open={Boolean(allSlotsOf)} onClose={() => setAllSlotsOf(null)} fullWidth maxWidth="sm" aria-labelledby="all-slots-title">
        <ClosableTitle id="all-slots-title" onClose={() => setAllSlotsOf(null)}>
          {t('patient.availableAppointments')}
        </ClosableTitle>
        <DialogContent>
          {allSlotsOf && (
            <Stack spacing={1}>
              <TruncatedText text={allSlotsOf.doctor.name} sx={{ fontWeight: 600 }} />
              <SlotPicker
                slots={allSlotsOf.doctor.availableSlots}
                doctorName={allSlotsOf.doctor.name}
                initialDate={allSlotsOf.date}
                onPick={(slot) => navigate(confirmPath(allSlotsOf.doctor, slot))}
              />
            </Stack>
          )}
        </DialogContent>
      </Dialog>
    </Stack>
  );
}
