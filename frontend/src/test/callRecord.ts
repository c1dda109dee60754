/** A consultation's record as the summary shows it: 30 minutes, ended by the timer, a doctor and a patient. */
export const CALL_RECORD = {
  started_at: '2026-11-23T04:30:00Z',
  ended_at: '2026-11-23T05:00:00Z',
  duration_seconds: 1800,
  auto_ended: true,
  room: 'consultation-a1',
  participants: [
    { user_id: 'doc', name: 'Dr. Ananya Sharma', role: 'doctor' as const, role_display_name: 'Healthcare Provider' },
    { user_id: 'pat', name: 'Priya Patel', role: 'patient' as const, role_display_name: 'Patient' },
  ],
};
