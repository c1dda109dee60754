import { useCallback, useState } from 'react';
import { appendLog, type DebugEntry, type LogLevel } from './model';

/** Writes one line to the call's debug console. */
export type CallLog = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

/** The debug console's entries (the newest DEBUG_LOG_CAP) and a stable `log` to add to them. */
export function useDebugLog() {
  const [entries, setEntries] = useState<DebugEntry[]>([]);
  const log = useCallback<CallLog>((level, message, data) => setEntries((all) => appendLog(all, level, message, data)), []);
  const clear = useCallback(() => setEntries([]), []);
  return { entries, log, clear };
}
