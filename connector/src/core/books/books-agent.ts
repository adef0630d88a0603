// The connection to the books, kept between requests. Node's agent keeps a free socket only when the
// server's keep-alive hint leaves it a second's margin, so a server announcing `Keep-Alive: timeout=1`
// (as the emulator does) gets a new TCP connection for every request: a connect and an accept
// between one import's answer and the next. This agent keeps such a socket for half the announced
// time instead — the next request of a run leaves within milliseconds — and lets it go after that.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';

/** The idle seconds a `Keep-Alive: timeout=N` header announces, if any. */
export function keepAliveSeconds(header: string | undefined): number | undefined {
  const seconds = Number(/(?:^|[\s,])timeout=(\d+)/i.exec(header ?? '')?.[1]);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** Remembers the last answer's keep-alive hint (BooksClient tells it) and honours a short one. */
export type BooksAgent = http.Agent & { lastKeepAliveHint: string | undefined };

/** Node's keepSocketAlive returns whether the socket may be kept (its types say void). */
type KeepSocketAlive = (socket: Socket) => boolean;

/** http.Agent or https.Agent, with the keep-alive rule above. */
function honouringShortHints(Base: typeof http.Agent) {
  return class extends Base {
    lastKeepAliveHint: string | undefined;

    override keepSocketAlive(socket: Socket): boolean {
      if ((super.keepSocketAlive as unknown as KeepSocketAlive).call(this, socket)) return true;
      const seconds = keepAliveSeconds(this.lastKeepAliveHint);
      if (seconds === undefined || seconds < 1) return false;
      socket.setTimeout(seconds * 500);
      return true;
    }
  };
}

const HttpBooksAgent = honouringShortHints(http.Agent);
const HttpsBooksAgent = honouringShortHints(https.Agent);

export function createBooksAgent(protocol: string): BooksAgent {
  const options = { keepAlive: true, maxSockets: 1 };
  return protocol === 'https:' ? new HttpsBooksAgent(options) : new HttpBooksAgent(options);
}
