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

/**
 * waitFor on the fake clock: between attempts the clock moves on by `stepMs` (and what the real event loop holds, a
 * stubbed fetch's answer, gets its turn), so a wait of the screen's own passes at once even when it starts only after
 * something loads. It gives up after `timeoutMs` of the fake clock, with the expectation's last error.
 */
export async function waitOnClock(expectation: () => void, { stepMs = 50, timeoutMs = 15_000 } = {}): Promise<void> {
  for (let waited = 0; ; waited += stepMs) {
    try {
      expectation();
      return;
    } catch (error) {
      if (waited >= timeoutMs) throw error;
    }
    await elapse(stepMs);
  }
}
