import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Vitest's fake clock for a screen's test. It still moves with the real one, so Testing Library's waitFor polls and
 * gives up as usual (user-event then needs `advanceTimers: vi.advanceTimersByTime`); `elapse` moves it on at once past
 * a wait of the screen's own (an autosave's debounce), instead of the test sitting through it.
 */
export function useFakeClock(): void {
  vi.useFakeTimers({ shouldAdvanceTime: true });
}

/** Moves the fake clock on by `ms`: what falls due runs, and the renders it causes. */
export async function elapse(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
