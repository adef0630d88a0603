// Puts the relay's clock on the app as `app.clock`: the system clock, or the one a test handed to
// buildApp.
import fp from 'fastify-plugin';
import { relayClock, type RelayClock } from './clock.js';

declare module 'fastify' {
  interface FastifyInstance {
    clock: RelayClock;
  }
}

export const clockPlugin = fp<{ now?: () => number }>(
  async (app, options) => {
    app.decorate('clock', relayClock(options.now));
  },
  { name: 'ledgerwire-clock', fastify: '5.x' },
);
