import { useEffect, useState } from 'react';

/** The time now, renewed every `everyMs`: for what a screen shows only inside a window of time (a button, an offer). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
