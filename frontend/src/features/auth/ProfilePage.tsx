import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { api } from '../../lib/api';

interface Me {
  name: string;
  email: string | null;
  phone_number: string | null;
  account_type: string;
  doctor: { specialty: string; qualification: string; consultation_fee: number; registration_number: string | null; medical_council: string | null } | null;
}

/** The signed-in person's profile, as the server has it. */
export function ProfilePage() {
  const me = useQuery({ queryKey: ['users', 'me'], queryFn: () => api<Me>('/users/me') });
  if (me.isLoading) return <CircularProgress />;
  if (!me.data) return <Typography>Your profile could not be loaded.</Typography>;
  const { name, email, phone_number, doctor } = me.data;
  return (
    <Card>
      <CardContent>
        <Stack spacing={1}>
          <Typography variant="h5" component="h1">
            {name}
          </Typography>
          {email && <Typography>{email}</Typography>}
          {phone_number && <Typography>{phone_number}</Typography>}
          {doctor && (
            <>
              <Typography>
                {doctor.specialty} · {doctor.qualification} · ₹{doctor.consultation_fee}
              </Typography>
              {doctor.registration_number && (
                <Typography>
                  Registration {doctor.registration_number}
                  {doctor.medical_council ? `, ${doctor.medical_council}` : ''}
                </Typography>
              )}
            </>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
