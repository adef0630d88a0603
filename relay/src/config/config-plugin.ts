// Puts the one loaded config on the app as `app.config`, first, so every module plugin reads the same
// frozen settings instead of being handed them one by one.
import fp from 'fastify-plugin';
import type { RelayConfig } from './load-config.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: RelayConfig;
  }
}

export const configPlugin = fp<{ config: RelayConfig }>(
  async (app, { config }) => {
    app.decorate('config', config);
  },
  { name: 'ledgerwire-config', fastify: '5.x' },
);
