// Enrolment and authentication of connector machines. The customer token only enrols; each machine then
// holds its own credential `<connector_id>:<secret>`, of which only the secret's SHA-256 is stored. So
// rotating the customer token stops new enrolments and leaves enrolled machines working.
import { AppError } from '../../errors/catalogue.js';
import { isUniqueViolation } from '../../foundation/messaging-ids.js';
import { generateSecret, secretMatchesHash, sha256Hex } from '../../security/secret-hash.js';
import { prefixedId, systemClock } from '../bridge-ids.js';
import type { ConnectorRepository } from '../connectors/connector-repository.js';
import type { Clock, GatewayCustomerLookup } from './gateway-ports.js';

const CREDENTIAL_PATTERN = /^(con_[0-9a-f]{24}):(lwcc_[A-Za-z0-9_-]{43})$/;

export type AuthenticatedConnector = Readonly<{ connectorId: string; customerId: string; applicationId: string }>;

export type EnrolmentResult = Readonly<{ connector_id: string; credential: string; reenrolled: boolean }>;

export class EnrolmentService {
  private readonly connectors: ConnectorRepository;
  private readonly customers: GatewayCustomerLookup;
  private readonly clock: Clock;

  constructor(deps: { connectors: ConnectorRepository; customers: GatewayCustomerLookup; clock?: Clock }) {
    this.connectors = deps.connectors;
    this.customers = deps.customers;
    this.clock = deps.clock ?? systemClock;
  }

  async enrol(input: { token: string; machine_name: string; version: string }): Promise<EnrolmentResult> {
    const customer = await this.customers.findByToken(input.token);
    if (!customer) throw new AppError('enrolment_token_invalid');
    const secret = generateSecret('lwcc_');
    const enrolOnce = () =>
      this.connectors.enrol({
        newId: prefixedId('con_'),
        customerId: customer.id,
        applicationId: customer.application_id,
        machineName: input.machine_name,
        version: input.version,
        credentialHash: sha256Hex(secret),
        now: this.clock().toISOString(),
      });
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
