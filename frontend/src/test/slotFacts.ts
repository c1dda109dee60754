/** A slot as GET /slots/{id} answers it for the confirm page: Dr. Kavya Rao's, on 2 January 2030 at 09:00 in India. */
export const slotFacts = (availability = 'open') => ({
  slot_id: 12,
  slot_date: '2030-01-02',
  start_time: '09:00:00',
  end_time: '09:30:00',
  start_at: '2030-01-02T03:30:00Z',
  end_at: '2030-01-02T04:00:00Z',
  doctor: { doctor_id: 'd-1', name: 'Dr. Kavya Rao', specialty: 'Dermatology', qualification: 'MD', consultation_fee: 450 },
  availability,
});
