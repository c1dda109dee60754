import type { WebSocket } from 'ws';
import { WS_CLOSE } from '@telemed/contracts';
import type { GuardedSocket } from './socket-guard';

interface Entry {
  userId: string;
  /** The sign-in session whose token opened the socket (tokens minted outside a session have none). */
  sessionId: string | null;
  guarded: GuardedSocket;
}

type Close = { code: number; reason: string };

/**
 * Open sockets by user and by session: every tab and device of a user gets that user's messages, ending a session
 * closes the sockets it opened, and a user has at most `maxPerUser` sockets (the oldest is closed).
 */
export class SocketSessions {
  private readonly byUser = new Map<string, Set<Entry>>();
  private readonly bySession = new Map<string, Set<Entry>>();
  private readonly bySocket = new Map<WebSocket, Entry>();

  constructor(private readonly maxPerUser: number) {}

  add(userId: string, sessionId: string | null, guarded: GuardedSocket): void {
    const entry: Entry = { userId, sessionId, guarded };
    const set = addTo(this.byUser, userId, entry);
    this.bySocket.set(guarded.socket, entry);
    if (sessionId) addTo(this.bySession, sessionId, entry);
    guarded.socket.on('close', () => this.remove(entry));
    // Sets keep insertion order: the first entries are the oldest sockets.
    for (const old of set) {
      if (set.size <= this.maxPerUser) break;
      this.remove(old);
      old.guarded.close(WS_CLOSE.tooManySockets);
    }
  }

  private remove(entry: Entry): void {
    this.bySocket.delete(entry.guarded.socket);
    removeFrom(this.byUser, entry.userId, entry);
    if (entry.sessionId) removeFrom(this.bySession, entry.sessionId, entry);
  }

  /** Whether the user has an open socket here. */
  has(userId: string): boolean {
    return this.byUser.has(userId);
  }

  /** Sends to every open socket of the user; returns how many took it. */
  send(userId: string, message: unknown): number {
    return this.sendText(userId, JSON.stringify(message));
  }

  sendText(userId: string, text: string): number {
    let sent = 0;
    for (const entry of [...(this.byUser.get(userId) ?? [])]) if (entry.guarded.send(text)) sent += 1;
    return sent;
  }

  closeSession(sessionId: string, close: Close): number {
    return this.closeEntries([...(this.bySession.get(sessionId) ?? [])], close);
  }

  closeUser(userId: string, close: Close): number {
    return this.closeEntries([...(this.byUser.get(userId) ?? [])], close);
  }

  private closeEntries(entries: Entry[], close: Close): number {
    for (const entry of entries) {
      this.remove(entry);
      entry.guarded.close(close);
    }
    return entries.length;
  }

  get count(): number {
    return this.bySocket.size;
  }

  closeAll(close: Close): void {
    this.closeEntries([...this.bySocket.values()], close);
  }
}

function addTo<K>(index: Map<K, Set<Entry>>, key: K, entry: Entry): Set<Entry> {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(entry);
  return set;
}

function removeFrom<K>(index: Map<K, Set<Entry>>, key: K, entry: Entry): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(entry);
  if (set.size === 0) index.delete(key);
}
