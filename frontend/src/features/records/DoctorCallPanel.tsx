import { Suspense, lazy } from 'react';
import { isDoctor, useSession } from '../../lib/session';

// The panel, the builder and the patient's records load only when a doctor is in a call.
const CallRecordsPanel = lazy(async () => ({ default: (await import('./CallRecordsPanel')).CallRecordsPanel }));

/** What the call view renders: for a doctor, the Prescriptions & Notes panel (seed 001 §2); nothing for anyone else. */
export function DoctorCallPanel() {
  const session = useSession();
  if (!isDoctor(session?.user)) return null;
  return (
    <Suspense fallback={null}>
      <CallRecordsPanel />
    </Suspense>
  );
}
