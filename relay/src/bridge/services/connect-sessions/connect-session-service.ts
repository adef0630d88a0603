// Connect sessions as the integrator sees them: create one for a customer (naming its company or one
// to create), read its progress, list a customer's, cancel one. Also the two steps that move a session
// on from outside: a connector enrolling with the setup code (see enrolment-service.ts) and the
// session's company being paired with that connector, which completes it and raises
// `connect_session.completed` in the same transaction (the webhook outbox), so it is announced once.
import { formatSetupCode, SETUP_CODE_ALPHABET, SETUP_CODE_LENGTH, type ConnectSessionIn, type ConnectSessionOut, type ConnectSessionStatus } from '@ledgerwire/shared';
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { isUniqueViolation } from '../../../foundation/messaging-ids.js';
import type { KeyedDigest } from '../../../security/keyed-digest.js';
import { generateSecret } from '../../../security/secret-hash.js';
import { queueEventsInTransaction } from '../../../webhooks/services/webhook-outbox.js';
import { prefixedId, systemClock, type Clock } from '../../store/bridge-ids.js';
import type { CompanyRepository, CompanyRow } from '../../store/companies/company-repository.js';
import type { CompanyService } from '../companies/company-service.js';
import type { ConnectorDirectory, ConnectorRecord } from '../companies/connector-directory.js';
import type { CustomerService } from '../customers/customer-service.js';
import { ConnectSessionStore, type ConnectSessionRow } from '../../store/connect-sessions/connect-session-store.js';

export const DEFAULT_CONNECT_SESSION_SECONDS = 7 * 24 * 3600;
/** The page token's prefix: `/connect/lwcp_…` is the hosted page's address. */
export const PAGE_TOKEN_PREFIX = 'lwcp_';

export type CreatedConnectSession = ConnectSessionOut & { url: string; setup_code: string };

/**
 * A setup code's stored digest. The code has 40 bits: enough against guessing online, which is
 * rate-limited, but not against a plain hash in a copied database, hence the HMAC under a relay key.
 */
export function setupCodeDigest(secrets: KeyedDigest, canonicalCode: string): string {
  return secrets.digest(`setup-code:${canonicalCode}`);
}

function newSetupCode(): string {
  let code = '';
  for (let index = 0; index < SETUP_CODE_LENGTH; index++) code += SETUP_CODE_ALPHABET[randomInt(SETUP_CODE_ALPHABET.length)];
  return code;
}

/** The status a reader sees: expiry from the clock, books_found from the connector's latest report. */
export function effectiveStatus(row: ConnectSessionRow, connector: ConnectorRecord | undefined, now: Date): ConnectSessionStatus {
  if (row.status === 'completed' || row.status === 'cancelled') return row.status;
  if (Date.parse(row.expires_at) <= now.getTime()) return 'expired';
  if (row.status === 'connector_enrolled' && connector?.online === true && connector.open_companies.length > 0) return 'books_found';
  return row.status;
}

export class ConnectSessionService {
  private readonly store: ConnectSessionStore;
  private readonly clock: Clock;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      /** Digests the setup code and page token (security/keyed-digest.ts). */
      secrets: KeyedDigest;
      customers: CustomerService;
      companies: CompanyService;
      companyRepository: Pick<CompanyRepository, 'get'>;
      /** Late-bound: the gateway's connector records. */
      connectors: () => ConnectorDirectory | undefined;
      /** Wakes the webhook worker after a completion committed its event. */
      webhooksQueued: () => void;
      publicUrl: string;
      clock?: Clock;
    },
  ) {
    this.store = new ConnectSessionStore(deps.db);
    this.clock = deps.clock ?? systemClock;
  }

  async create(applicationId: string, input: ConnectSessionIn): Promise<CreatedConnectSession> {
    await this.deps.customers.get(applicationId, input.customer_id);
    const company = input.company_id !== undefined ? await this.customersCompany(applicationId, input.customer_id, input.company_id) : undefined;
    const now = this.clock();
    const pageToken = generateSecret(PAGE_TOKEN_PREFIX);
    const base = {
      id: prefixedId('cs_'),
      application_id: applicationId,
      customer_id: input.customer_id,
      status: 'pending' as const,
      page_token_hash: this.deps.secrets.digest(pageToken),
      return_url: input.return_url ?? null,
      connector_id: null,
      expires_at: new Date(now.getTime() + (input.expires_in_seconds ?? DEFAULT_CONNECT_SESSION_SECONDS) * 1000).toISOString(),
      connector_enrolled_at: null,
      completed_at: null,
      cancelled_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    // The company to create is made only once the rest is valid, and before the session naming it.
    const target = company
      ? { id: company.id, name: company.name }
      : await this.deps.companies.create(applicationId, { name: input.company_name ?? '', customer_id: input.customer_id }).then((made) => ({ id: made.company_id, name: made.name }));
    for (let attempt = 1; ; attempt++) {
      const code = newSetupCode();
      const row: ConnectSessionRow = { ...base, company_id: target.id, setup_code_hash: setupCodeDigest(this.deps.secrets, code) };
      try {
        await this.store.insert(row);
        // The code rides in the fragment, which browsers never send: the page shows it to type, the relay never sees it there.
        const setupCode = formatSetupCode(code);
        return { ...this.sessionOut(row, target.name, undefined), url: `${this.deps.publicUrl}/connect/${pageToken}#code=${setupCode}`, setup_code: setupCode };
      } catch (error) {
        // Another session (live or long over) holds the same code: draw again.
        if (attempt >= 5 || !isUniqueViolation(error)) throw error;
      }
    }
  }

  async get(applicationId: string, id: string): Promise<ConnectSessionOut> {
    const row = await this.store.get(applicationId, id);
    if (!row) throw new AppError('connect_session_not_found', { message: `No connect session ${id} under this application` });
    return this.describe(row);
  }

  async list(applicationId: string, customerId: string): Promise<ConnectSessionOut[]> {
    await this.deps.customers.get(applicationId, customerId);
    const rows = await this.store.list(applicationId, customerId);
    return Promise.all(rows.map((row) => this.describe(row)));
  }

  async cancel(applicationId: string, id: string): Promise<ConnectSessionOut> {
    const row = await this.store.get(applicationId, id);
    if (!row) throw new AppError('connect_session_not_found', { message: `No connect session ${id} under this application` });
    if (!(await this.store.cancel(id, this.clock().toISOString()))) {
      const status = effectiveStatus(row, undefined, this.clock());
      if (status === 'cancelled') return this.describe(row);
      throw new AppError('connect_session_closed', { message: `Connect session ${id} is ${status === 'pending' ? 'changing' : status}: it can no longer be cancelled` });
    }
    return this.get(applicationId, id);
  }

  /** Support (the console): a customer's sessions, whichever application it belongs to. */
  async operatorList(customerId: string): Promise<ConnectSessionOut[]> {
    const customer = await this.deps.customers.getById(customerId);
    return this.list(customer.application_id, customerId);
  }

  /** Support (the console) cancels a customer's link, as the integrator's cancel does. */
  async operatorCancel(id: string): Promise<ConnectSessionOut> {
    const row = await this.store.getById(id);
    if (!row) throw new AppError('connect_session_not_found', { message: `No connect session ${id}` });
    return this.cancel(row.application_id, id);
  }

  /** The live session a setup code belongs to, for enrolment; undefined when the code is unknown, used, or its session is over. */
  async liveSessionForCode(canonicalCode: string): Promise<ConnectSessionRow | undefined> {
    const digest = setupCodeDigest(this.deps.secrets, canonicalCode);
    const row = await this.store.findBySetupCodeHash(digest);
    // The index found the row by equal digests; the constant-time check is the one that decides.
    if (!row || !this.deps.secrets.matches(`setup-code:${canonicalCode}`, row.setup_code_hash) || row.status !== 'pending' || Date.parse(row.expires_at) <= this.clock().getTime()) return undefined;
    return row;
  }

  /** In the enrolment's transaction: the code is used by this connector, or (raced and lost) not at all. */
  claimForConnector(executor: Kysely<Database>, sessionId: string, connectorId: string, now: string): Promise<boolean> {
    return this.store.claimForConnector(executor, sessionId, connectorId, now);
  }

  /** A company was paired with a connector (on the hosted page, in the connector, or by support): completes the sessions that waited for it. */
  async companyPaired(connectorId: string, companyId: number): Promise<void> {
    const waiting = await this.store.findAwaitingPairing(connectorId, companyId);
    for (const row of waiting) await this.complete(row);
  }

  async complete(row: ConnectSessionRow): Promise<boolean> {
    const company = await this.deps.companyRepository.get(row.company_id);
    const connector = row.connector_id === null ? undefined : await this.deps.connectors()?.get(row.connector_id);
    const now = this.clock().toISOString();
    const completed = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.store.complete(trx, row.id, now))) return false;
      const data = {
        connect_session_id: row.id,
        customer_id: row.customer_id,
        company_id: row.company_id,
        company_name: company?.name ?? null,
        connector_id: row.connector_id,
        machine_name: connector?.machine_name ?? null,
        books_company_guid: company?.books_company_guid ?? null,
        books_company_name: company?.books_company_name ?? null,
        occurred_at: now,
      };
      await queueEventsInTransaction(trx, [{ owner: { kind: 'application', id: row.application_id }, type: 'connect_session.completed', data }], now);
      return true;
    });
    if (completed) this.deps.webhooksQueued();
    return completed;
  }

  async describe(row: ConnectSessionRow): Promise<ConnectSessionOut> {
    const company = await this.deps.companyRepository.get(row.company_id);
    const connector = row.connector_id === null ? undefined : await this.deps.connectors()?.get(row.connector_id);
    return this.sessionOut(row, company?.name ?? '', connector);
  }

  private sessionOut(row: ConnectSessionRow, companyName: string, connector: ConnectorRecord | undefined): ConnectSessionOut {
    return {
      id: row.id,
      customer_id: row.customer_id,
      company_id: row.company_id,
      company_name: companyName,
      status: effectiveStatus(row, connector, this.clock()),
      return_url: row.return_url,
      connector_id: row.connector_id,
      expires_at: row.expires_at,
      connector_enrolled_at: row.connector_enrolled_at,
      completed_at: row.completed_at,
      cancelled_at: row.cancelled_at,
      created_at: row.created_at,
    };
  }

  private async customersCompany(applicationId: string, customerId: string, companyId: number): Promise<CompanyRow> {
    const company = await this.deps.companyRepository.get(companyId);
    if (!company || company.application_id !== applicationId) throw new AppError('company_not_found', { message: `No company ${companyId} under this application` });
    if (company.customer_id !== customerId) {
      throw new AppError('connect_session_invalid', { message: `Company ${companyId} is not attached to customer ${customerId}: attach it first, or pass company_name to create one` });
    }
    return company;
  }
}
