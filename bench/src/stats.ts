/** Small statistics helpers for the benchmarks: medians and percentiles of latencies, rates. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Runs `fn` `times` times and returns the median of its results (the machines are noisy). */
export async function medianOf(times: number, fn: () => Promise<number>): Promise<{ median: number; runs: number[] }> {
  const runs: number[] = [];
  for (let i = 0; i < times; i += 1) runs.push(await fn());
  return { median: median(runs), runs };
}
