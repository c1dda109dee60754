import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Dialog, DialogContent } from '@mui/material';
import { TOAST_MAX, ToastProvider, useToasts, type ToastInput } from './toasts';

let show: (t: ToastInput) => number = () => 0;
let dismissKey: (key: string) => void = () => {};
function Grab() {
  ({ show, dismissKey } = useToasts());
  return null;
}

describe('toasts', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('dismiss after 5 000 ms by default, after their own duration, or never when not auto-dismissed', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Grab />
      </ToastProvider>,
    );
    act(() => {
      show({ type: 'success', title: 'Default' });
      show({ type: 'info', title: 'Short', duration: 3000 });
      show({ type: 'appointment', title: 'Sticky', autoDismiss: false });
    });
    act(() => vi.advanceTimersByTime(3100));
    expect(screen.queryByText('Short')).toBeNull();
    expect(screen.getByText('Default')).toBeTruthy();
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.queryByText('Default')).toBeNull();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('Sticky')).toBeTruthy();
  });

  it('keep at most 20, and run an action then close', () => {
    render(
      <ToastProvider>
        <Grab />
      </ToastProvider>,
    );
    const clicked = vi.fn();
    act(() => {
      for (let i = 0; i < 25; i += 1) show({ type: 'info', title: `T${i}`, autoDismiss: false });
      show({ type: 'success', title: 'With action', autoDismiss: false, actions: [{ label: 'View Appointments', primary: true, handler: clicked }] });
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(TOAST_MAX);
    expect(screen.queryByText('T0')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'View Appointments' }));
    expect(clicked).toHaveBeenCalledOnce();
    expect(screen.queryByText('With action')).toBeNull();
  });

  it('show one toast per key: the same key replaces it, and dismissing the key removes it', () => {
    render(
      <ToastProvider>
        <Grab />
      </ToastProvider>,
    );
    act(() => {
      show({ type: 'appointment', title: 'New Patient Request', message: 'first', autoDismiss: false, key: 'request:a-1' });
      show({ type: 'appointment', title: 'New Patient Request', message: 'again', autoDismiss: false, key: 'request:a-1' });
      show({ type: 'appointment', title: 'New Patient Request', message: 'other', autoDismiss: false, key: 'request:a-2' });
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(2);
    expect(screen.queryByText('first')).toBeNull();
    act(() => dismissKey('request:a-1'));
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(screen.getByText('other')).toBeTruthy();
  });

  it('while a dialog is open, show inside it (not hidden from screen readers, within its focus), and back outside after', async () => {
    const view = (open: boolean) => (
      <ToastProvider>
        <Grab />
        <Dialog open={open} transitionDuration={0}>
          <DialogContent>Writing a post</DialogContent>
        </Dialog>
      </ToastProvider>
    );
    const { rerender } = render(view(true));
    act(() => {
      show({ type: 'success', title: 'Post published', actions: [{ label: 'View post', handler: () => {} }] });
    });
    const dialog = await screen.findByRole('dialog');
    await vi.waitFor(() => expect(dialog.contains(screen.getByText('Post published'))).toBe(true));
    expect(screen.getByTestId('toasts').closest('[aria-hidden="true"]')).toBeNull();
    const action = screen.getByRole('button', { name: 'View post' });
    action.focus();
    expect(document.activeElement).toBe(action);
    rerender(view(false));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await vi.waitFor(() => expect(screen.getByText('Post published').closest('[role="dialog"]')).toBeNull());
  });
});
