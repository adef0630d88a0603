// The connector-facing HTTP surface: enrolment with the customer token, the WebSocket of the protocol,
// and pairing from the connector's side. Everything but enrolment is behind the connector credential.
import websocket from '@fastify/websocket';
import {
  ConnectorCompaniesOut,
  ConnectorEnrolIn,
  ConnectorEnrolOut,
  ConnectorPairingIn,
  ConnectorPairingOut,
  ConnectorPairingParams,
  ErrorEnvelopeOut,
  MAX_FRAME_BYTES,
} from '@ledgerwire/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors/catalogue.js';
import { bearerToken } from '../../operator/admin/operator-auth.js';
import type { AuthenticatedConnector } from '../services/enrolment-service.js';
import { webSocketTransport } from '../services/session-transport.js';

const tags = ['connectors'];
// No OpenAPI security scheme of its own yet (relay/src/http/openapi.ts is not this area's file): the
// description says which credential the route wants.
const auth = 'Authorization: Bearer <connector credential> (from enrolment).';

export const connectorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sessions: gateway, enrolment, pairing } = app.gateway;
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });

  const connectorOf = new WeakMap<FastifyRequest, AuthenticatedConnector>();
  const requireConnector = async (request: FastifyRequest) => {
    connectorOf.set(request, await enrolment.authenticate(bearerToken(request)));
  };
  const current = (request: FastifyRequest): AuthenticatedConnector => {
    const connector = connectorOf.get(request);
    if (!connector) throw new AppError('connector_credential_missing');
    return connector;
  };

  app.post(
    '/api/v1/connectors/enroll',
    {
      schema: {
        tags,
        summary: 'Enrol a machine with the customer token or a connect session\'s setup code; answers the connector credential (shown once)',
        description: 'Setup codes tried are counted per client address (CONNECT_SETUP_CODE_ATTEMPTS_PER_HOUR); past the limit the answer is 429 setup_code_attempts_exceeded with Retry-After.',
        body: ConnectorEnrolIn,
        response: { 200: ConnectorEnrolOut, 401: ErrorEnvelopeOut, 429: ErrorEnvelopeOut },
      },
    },
    async (request) => ({ success: true as const, ...(await enrolment.enrol(request.body, request.ip)) }),
  );

  app.route({
    method: 'GET',
    url: '/api/v1/connectors/socket',
    schema: { tags, summary: 'The connector protocol (WebSocket; messages in @ledgerwire/shared protocol)', description: auth },
    // Runs before the upgrade: a bad credential is answered 401 and no socket is opened.
    preValidation: requireConnector,
    handler: async () => {
      throw new AppError('connector_upgrade_required');
    },
    wsHandler: (socket, request) => {
      gateway.attach(webSocketTransport(socket, request.raw.socket), current(request));
    },
  });

  app.get(
    '/api/v1/connectors/companies',
    { schema: { tags, summary: "The companies of this connector's customer, with their pairings", description: auth, response: { 200: ConnectorCompaniesOut } }, preValidation: requireConnector },
    async (request) => ({ success: true as const, companies: await pairing.listCompanies(current(request)) }),
  );

  app.post(
    '/api/v1/connectors/pairings',
    {
      schema: { tags, summary: 'Pair one of the customer\'s companies to a books company on this machine', description: auth, body: ConnectorPairingIn, response: { 200: ConnectorPairingOut } },
      preValidation: requireConnector,
    },
    async (request) => ({ success: true as const, company: await pairing.pair(current(request), request.body) }),
  );

  app.delete(
    '/api/v1/connectors/pairings/:company_id',
    {
      schema: { tags, summary: 'Unpair a company from this connector', description: auth, params: ConnectorPairingParams, response: { 200: ConnectorPairingOut } },
      preValidation: requireConnector,
    },
    async (request) => ({ success: true as const, company: await pairing.unpair(current(request), request.params.company_id) }),
  );
};
