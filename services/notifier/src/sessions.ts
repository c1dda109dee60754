import type { WebSocket } from 'ws';

/** Open sockets by user: every tab and device of a user gets that user's messages. */
export class SocketSessions {
  private readonly byUser = new Map<string, Set<WebSocket>>();

  add(userId: string, socket: WebSocket): void {
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(socket);
    socket.on('close', () => {
      set.delete(socket);
      if (set.size === 0 && this.byUser.get(userId) === set) this.byUser.delete(userId);
    });
  }

  /** Sends to every open socket of the user; returns how many got it. */
  send(userId: string, message: unknown): number {
    const text = JSON.stringify(message);
    let sent = 0;
    for (const socket of this.byUser.get(userId) ?? []) {
      if (socket.readyState !== socket.OPEN) continue;
      socket.send(text);
      sent += 1;
    }
    return sent;
  }

  get count(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  closeAll(code: number, reason: string): void {
    for (const set of this.byUser.values()) for (const socket of set) socket.close(code, reason);
  }
}
