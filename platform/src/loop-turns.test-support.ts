/**
 * How many turns the event loop made while `work` was under way (a chain of setImmediate callbacks): about none when
 * the work held the loop from start to end, many when it ran beside it (on another thread). For tests.
 */
export async function loopTurnsDuring<T>(work: Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const turn = () => {
    if (done) return;
    turns += 1;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    return { result: await work, turns };
  } finally {
    done = true;
  }
}
