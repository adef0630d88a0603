// Enrolment and authentication of connector machines. The customer token only enrols; each machine then
// holds its own credential `<connector_id>:<secret>`, of which only the secret's SHA-256 is stored. So
// rotating the customer token stops new enrolments and leaves enrolled machines working.
// The same field takes a connect session's setup code (K7QP-M3XD): anything not shaped like a customer
// token (`lwct_…`) is taken as one. Codes are counted per client address against guessing, and every
// refusal — unknown, used, expired, cancelled — is the same answer after the same one lookup.
import { normaliseSetupCode } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors/catalogue.js';
import { isUniqueViolation } from '../../foundation/messaging-ids.js';
import { rateLimitHeaders, type RateLimitDecision, type RateLimitRule } from '../../limits/rate-limiter.js';
import { generateSecret, secretMatchesHash, sha256Hex } from '../../security/secret-hash.js';
import { prefixedId, systemClock } from '../../bridge/store/bridge-ids.js';
import type { ConnectorRepository } from '../../bridge/store/connectors/connector-repository.js';
import type { Clock, GatewayCustomerLookup } from './gateway-ports.js';

const CREDENTIAL_PATTERN = /^(con_[0-9a-f]{24}):(lwcc_[A-Za-z0-9_-]{43})$/;

export type AuthenticatedConnector = Readonly<{ connectorId: string; customerId: string; applicationId: string }>;

export type EnrolmentResult = Readonly<{ connector_id: string; credential: string; reenrolled: boolean }>;

/** What enrolment needs of connect sessions (connect-session-service.ts). */
export type SetupCodeSessions = Readonly<{
  liveSessionForCode(canonicalCode: string): Promise<{ id: string; customer_id: string; application_id: string } | undefined>;
  claimForConnector(executor: Kysely<Database>, sessionId: string, connectorId: string, now: string): Promise<boolean>;
}>;

export type SetupCodeGuard = Readonly<{
  counter: { consume(scope: string, rule: RateLimitRule): Promise<RateLimitDecision> };
  attemptsPerHour: number;
}>;

const CUSTOMER_TOKEN_PREFIX = 'lwct_';
const HOUR_MS = 3_600_000;

export class EnrolmentService {
  private readonly connectors: ConnectorRepository;
  private readonly customers: GatewayCustomerLookup;
  private readonly clock: Clock;
  private readonly setupCodes: SetupCodeSessions | undefined;
  private readonly guard: SetupCodeGuard | undefined;

  constructor(deps: { connectors: ConnectorRepository; customers: GatewayCustomerLookup; setupCodes?: SetupCodeSessions; guard?: SetupCodeGuard; clock?: Clock }) {
    this.connectors = deps.connectors;
    this.customers = deps.customers;
    this.setupCodes = deps.setupCodes;
    this.guard = deps.guard;
    this.clock = deps.clock ?? systemClock;
  }

  /** Enrols with a customer token or a setup code; `clientAddress` is whose guesses a code counts against. */
  async enrol(input: { token: string; machine_name: string; version: string }, clientAddress = 'unknown'): Promise<EnrolmentResult> {
    if (input.token.trim().startsWith(CUSTOMER_TOKEN_PREFIX) || !this.setupCodes) {
      const customer = await this.customers.findByToken(input.token.trim());
      if (!customer) throw new AppError('enrolment_token_invalid');
      return this.enrolFor(customer, input);
    }
    await this.countAttempt(clientAddress);
    // A text that cannot be a code is looked up all the same (it finds nothing), so every refusal takes one lookup.
    const code = normaliseSetupCode(input.token);
    const session = await this.setupCodes.liveSessionForCode(code ?? '');
    if (!session) throw new AppError('setup_code_invalid');
    const codes = this.setupCodes;
    return this.enrolFor({ id: session.customer_id, application_id: session.application_id }, input, async (trx, connectorId, now) => {
      // Raced by another enrolment with the same code (or it expired meanwhile): this one enrols nothing.
      if (!(await codes.claimForConnector(trx, session.id, connectorId, now))) throw new AppError('setup_code_invalid');
    });
  }

  private async countAttempt(clientAddress: string): Promise<void> {
    if (!this.guard) return;
    const decision = await this.guard.counter.consume(`setup-code:${clientAddress}`, { name: 'hour', limit: this.guard.attemptsPerHour, windowMs: HOUR_MS });
    if (!decision.allowed) throw new AppError('setup_code_attempts_exceeded', { headers: rateLimitHeaders(decision) });
  }

  private async enrolFor(
    customer: { id: string; application_id: string },
    input: { machine_name: string; version: string },
    alongside?: (trx: Kysely<Database>, connectorId: string, now: string) => Promise<void>,
  ): Promise<EnrolmentResult> {
    const secret = generateSecret('lwcc_');
    const enrolOnce = () => {
      const now = this.clock().toISOString();
      return this.connectors.enrol({
        newId: prefixedId('con_'),
        customerId: customer.id,
        applicationId: customer.application_id,
        machineName: input.machine_name,
        version: input.version,
        credentialHash: sha256Hex(secret),
        now,
        ...(alongside ? { alongside: (trx: Kysely<Database>, connectorId: string) => alongside(trx, connectorId, now) } : {}),
      });
    };
    const { id, reenrolled } = await retryOnUniqueViolation(enrolOnce);
    return { connector_id: id, credential: `${id}:${secret}`, reenrolled };
  }

  /** The connector a presented credential belongs to; throws connector_credential_* otherwise. */
  async authenticate(presented: string | undefined): Promise<AuthenticatedConnector> {
    if (presented === undefined) throw new AppError('connector_credential_missing');
    const match = CREDENTIAL_PATTERN.exec(presented);
    const connectorId = match?.[1];
    const secret = match?.[2];
    if (connectorId === undefined || secret === undefined) throw new AppError('connector_credential_invalid');
    const row = await this.connectors.getCredential(connectorId);
    if (!row || !secretMatchesHash(secret, row.credential_hash)) throw new AppError('connector_credential_invalid');
    return { connectorId: row.id, customerId: row.customer_id, applicationId: row.application_id };
  }
}

/**
 * Runs a read-then-insert again when a concurrent twin inserted the same unique key first (PostgreSQL
 * answers 23505 where SQLite, one writer at a time, never races): the second run reads the row the
 * twin wrote. Several enrolments of one machine at once thus all succeed, one as the new connector and
 * the rest as re-enrolments; the last credential written is the one that works, as with sequential ones.
 */
async function retryOnUniqueViolation<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isUniqueViolation(error)) throw error;
    }
  }
}
