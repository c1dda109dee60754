import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { RequestBanner } from './RequestBanner';
import { useFormat } from '../../i18n/format';
import { ConfirmProvider } from '../../lib/confirm';

const start = new Date(Date.now() + 3 * 86_400_000).toISOString();
const before = new Date(Date.now() + 2 * 86_400_000).toISOString();
const noop = () => {};

/** The banner as the dashboard docks it, and the phrase the screens write an instant with. */
function Banner({ moved }: { moved: boolean }) {
  const f = useFormat();
  return (
    <ConfirmProvider>
      <RequestBanner
        request={{ appointment_id: 'a1', patient_name: 'Meera Iyer', start_at: start, receivedAt: Date.now(), ...(moved ? { moved_from: { start_at: before, by: 'patient' as const } } : {}) }}
        onApprove={noop}
        onReject={noop}
        onReview={noop}
        onClose={noop}
      />
      <output data-testid="phrases">{`${f.whenPhrase(start)}|${f.whenPhrase(before)}`}</output>
    </ConfirmProvider>
  );
}

describe("the doctor's live request banner", () => {
  afterEach(cleanup);

  it('says a moved request is a move: to its new time, by the patient, and where it was', () => {
    render(<Banner moved />);
    const [now, was] = screen.getByTestId('phrases').textContent!.split('|') as [string, string];
    const banner = screen.getByTestId('request-banner');
    expect(within(banner).getByText('Appointment Moved')).toBeTruthy();
    expect(banner.textContent).toContain(`Meera Iyer has moved their appointment to ${now}`);
    expect(within(banner).getByTestId('banner-moved-from').textContent).toBe(`Moved by the patient (was ${was})`);
  });

  it('says a new request is new, with no earlier time', () => {
    render(<Banner moved={false} />);
    const banner = screen.getByTestId('request-banner');
    expect(within(banner).getByText('New Appointment Request')).toBeTruthy();
    expect(within(banner).queryByTestId('banner-moved-from')).toBeNull();
  });
});
