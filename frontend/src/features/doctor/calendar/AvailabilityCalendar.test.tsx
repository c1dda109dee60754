import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderAt } from '../../../test/render';
import { AvailabilityCalendar } from './AvailabilityCalendar';
import { addDays, keyOf, todayIn, weekStart } from './model';

const zone = 'Asia/Kolkata';

describe('AvailabilityCalendar marks', () => {
  afterEach(() => cleanup());

  it('marks booked, past and selected slots with icons, never emoji (a missing glyph without an emoji font)', () => {
    // Next week's Monday: neither past nor this week's edge.
    const monday = addDays(weekStart(todayIn(zone)), 8);
    const bookedKey = keyOf(monday, 4);
    const selectedKey = keyOf(monday, 6);
    renderAt('/', <AvailabilityCalendar open zone={zone} initial={new Set([selectedKey])} booked={new Set([bookedKey])} saving={false} onCancel={() => {}} onSave={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next week' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).not.toMatch(/🏥|✓|×/u);
    const booked = dialog.querySelector(`[data-slot="${bookedKey}"]`) as HTMLElement;
    expect(booked.getAttribute('aria-label')).toMatch(/booked$/);
    expect(within(booked).getByTestId('LocalHospitalOutlinedIcon')).toBeTruthy();
    expect(within(dialog.querySelector(`[data-slot="${selectedKey}"]`) as HTMLElement).getByTestId('CheckOutlinedIcon')).toBeTruthy();
    // The legend shows the same marks beside their words.
    expect(screen.getByText('booked (locked)').querySelector('[data-testid="LocalHospitalOutlinedIcon"]')).toBeTruthy();
    expect(screen.getByText('past').querySelector('[data-testid="CloseOutlinedIcon"]')).toBeTruthy();
  });
});
