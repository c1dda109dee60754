import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useSaveQueue } from './autosave';

/** A save the test finishes when it wants. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('saves one at a time', () => {
  it('starts a second save only once the first is done, and says where they stand', async () => {
    const { result } = renderHook(() => useSaveQueue());
    const first = deferred();
    const second = deferred();
    const order: string[] = [];
    let one!: Promise<boolean>;
    let two!: Promise<boolean>;
    act(() => {
      one = result.current.saveOnce(() => () => (order.push('first'), first.promise));
      two = result.current.saveOnce(() => () => (order.push('second'), second.promise));
    });
    await act(async () => {});
    expect(order).toEqual(['first']);
    expect(result.current.state).toBe('saving');
    await act(async () => first.resolve());
    expect(await one).toBe(true);
    expect(order).toEqual(['first', 'second']);
    await act(async () => second.reject(new Error('offline')));
    expect(await two).toBe(false);
    expect(result.current.state).toBe('failed');
  });

  it('asks what to save only after the save under way: nothing left answers at once, and settled waits', async () => {
    const { result } = renderHook(() => useSaveQueue());
    const first = deferred();
    let asked = false;
    let one!: Promise<boolean>;
    let two!: Promise<boolean>;
    act(() => {
      one = result.current.saveOnce(() => () => first.promise);
      two = result.current.saveOnce(() => {
        asked = true;
        return true;
      });
    });
    let settled = false;
    void result.current.settled().then(() => (settled = true));
    await act(async () => {});
    expect(asked).toBe(false);
    expect(settled).toBe(false);
    await act(async () => first.resolve());
    expect(await one).toBe(true);
    expect(await two).toBe(true);
    expect(asked).toBe(true);
    expect(settled).toBe(true);
    expect(result.current.state).toBe('saved');
  });
});
