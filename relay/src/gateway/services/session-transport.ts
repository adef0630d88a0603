// The one thing a connector session needs from its connection: send text, close, and hear frames and
// the close. The WebSocket adapter is here; protocol tests plug an in-memory pair into the same shape.
import type { Frame } from '@ledgerwire/shared';
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

export type SessionTransport = {
  /** Sends one frame; a no-op once the connection is closed. */
  send(text: string): void;
  /** Closes politely with a WebSocket close code (4000–4999 are the protocol's own). */
  close(code: number, reason: string): void;
  /** Drops the connection at once (dead peer). */
  terminate(): void;
  onFrame(handler: (frame: Frame) => void): void;
  onClose(handler: () => void): void;
};

/** Close codes of the connector protocol. */
export const CloseCode = Object.freeze({
  normal: 1000,
  goingAway: 1001,
  protocolError: 4000,
  replaced: 4001,
  heartbeatTimeout: 4002,
  unsupportedVersion: 4003,
});

/** A peer that does not answer the close handshake within this long is cut off rather than waited for. */
const CLOSE_HANDSHAKE_MS = 1000;

/** Closes politely, then cuts the connection if the peer has not completed the close by then. */
export function closeThenCut(transport: SessionTransport, code: number, reason: string): void {
  transport.close(code, reason);
  setTimeout(() => transport.terminate(), CLOSE_HANDSHAKE_MS).unref();
}

/**
 * `tcp` is the connection under the WebSocket: frames sent in one turn of the event loop (a run of
 * job.assign, a run of job.result.ack) leave in one write by corking it for the turn.
 */
export function webSocketTransport(socket: WebSocket, tcp?: Socket): SessionTransport {
  let corked = false;
  const coalesceWrites = () => {
    if (!tcp || corked) return;
    corked = true;
    tcp.cork();
    process.nextTick(() => {
      corked = false;
      tcp.uncork();
    });
  };
  return {
    send(text) {
      if (socket.readyState !== socket.OPEN) return;
      coalesceWrites();
      socket.send(text);
    },
    close(code, reason) {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
    },
    terminate() {
      socket.terminate();
    },
    onFrame(handler) {
      socket.on('message', (data, isBinary) => {
        // Binary frames are not part of the protocol; hand them on so the session answers malformed_message.
        handler(isBinary ? new Uint8Array(0) : (data as Frame));
      });
    },
    onClose(handler) {
      socket.once('close', () => handler());
    },
  };
}
