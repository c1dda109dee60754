import type { GuardedSocket } from './socket-guard';

/** A call as one person takes part in it: their user id with the appointment. */
export const callKey = (userId: string, appointmentId: string) => `${userId} ${appointmentId}`;

export function callOf(key: string): { userId: string; appointmentId: string } {
  const [userId, appointmentId] = key.split(' ') as [string, string];
  return { userId, appointmentId };
}

/** Which sockets on this replica carry which people's calls, both ways round. */
export class CallCarriers {
  /** socket → the calls it carries. */
  private readonly carried = new Map<GuardedSocket, Set<string>>();
  /** call → the sockets that carry it. */
  private readonly carriers = new Map<string, Set<GuardedSocket>>();

  /** Marks the socket as carrying the call; false when it already did. `onFirst` runs once per socket (to detach it on close). */
  attach(guarded: GuardedSocket, call: string, onFirst: () => void): boolean {
    let calls = this.carried.get(guarded);
    if (!calls) {
      this.carried.set(guarded, (calls = new Set()));
      onFirst();
    }
    if (calls.has(call)) return false;
    calls.add(call);
    let sockets = this.carriers.get(call);
    if (!sockets) this.carriers.set(call, (sockets = new Set()));
    sockets.add(guarded);
    return true;
  }

  /** Forgets a closed socket; returns the calls no socket here carries any longer. */
  detach(guarded: GuardedSocket): string[] {
    const calls = this.carried.get(guarded);
    this.carried.delete(guarded);
    const orphaned: string[] = [];
    for (const call of calls ?? []) {
      const sockets = this.carriers.get(call);
      sockets?.delete(guarded);
      if (sockets && sockets.size > 0) continue; // another socket of theirs here still carries it
      this.carriers.delete(call);
      orphaned.push(call);
    }
    return orphaned;
  }

  has(call: string): boolean {
    return this.carriers.has(call);
  }

  clear(): void {
    this.carried.clear();
    this.carriers.clear();
  }
}
