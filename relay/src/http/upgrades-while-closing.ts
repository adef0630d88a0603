// A request that reaches Fastify once it has begun to close is answered 503 before any hook runs. For
// a WebSocket upgrade that answer is written on a response @fastify/websocket made by hand for the raw
// socket, and nothing ends that socket afterwards: the HTTP server keeps sockets half-open, so a
// connector dialling back while the relay shuts down held server.close() — and the shutdown — for ever.
import type { FastifyInstance } from 'fastify';

/**
 * From the moment the app starts closing, the socket of an upgrade request is ended once Fastify's 503
 * is written (the answer is written within the same 'upgrade' event, so the next turn finds it queued).
 * Call before any other preClose hook is added: the first hook runs in the very turn Fastify starts
 * closing, so no upgrade falls between the two.
 */
export function endUpgradesWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.server.prependListener('upgrade', (_request, socket) => {
    if (!closing) return;
    setImmediate(() => {
      socket.once('finish', () => socket.destroy());
      socket.end();
    });
  });
}
