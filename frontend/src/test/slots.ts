/** Tomorrow in the test's own zone, as the slot lists key their days (YYYY-MM-DD). */
export const tomorrow = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + 86_400_000));

/** An open slot tomorrow at a local time ('09:30'). */
export const slotTomorrow = (id: number, time: string) => ({
  slot_id: id,
  slot_date: tomorrow,
  start_time: `${time}:00`,
  end_time: `${time}:00`,
  is_available: true,
  start_at: new Date(`${tomorrow}T${time}:00`).toISOString(),
  end_at: new Date(`${tomorrow}T${time}:00`).toISOString(),
});
