// Customers: one end-user business each, under an application. The token is the connector's
// enrolment secret: stored as SHA-256 plus a short lookup prefix, shown only on create and rotate.
// Rotating stops new enrolments with the old token; machines already enrolled keep their own credential.
import type { CustomerIn, CustomerOut } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { generateSecret, secretMatchesHash, sha256Hex } from '../../../security/secret-hash.js';
import type { CustomersTable } from '../../../db/bridge-tables.js';
import { prefixedId, systemClock, type Clock } from '../../store/bridge-ids.js';
import { findCustomerById } from '../../store/customers/find-customer-by-id.js';
import { findCustomerOfApplication } from '../../store/customers/find-customer-of-application.js';
import { findCustomersByTokenPrefix } from '../../store/customers/find-customers-by-token-prefix.js';
import { insertCustomer } from '../../store/customers/insert-customer.js';
import { listCustomers } from '../../store/customers/list-customers.js';
import { replaceCustomerToken } from '../../store/customers/replace-customer-token.js';

const TOKEN_PREFIX = 'lwct_';
/** Characters of the token kept in clear to find its row: the prefix plus 8 random characters. */
const LOOKUP_LENGTH = TOKEN_PREFIX.length + 8;

export type CustomerWithToken = CustomerOut & { token: string };
export type CustomerRecord = CustomerOut & { application_id: string };

function customerOut(row: Pick<CustomersTable, 'id' | 'name' | 'external_id' | 'created_at'>): CustomerOut {
  return { id: row.id, name: row.name, external_id: row.external_id, created_at: row.created_at };
}

export class CustomerService {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;

  constructor(deps: { db: Kysely<Database>; clock?: Clock }) {
    this.db = deps.db;
    this.clock = deps.clock ?? systemClock;
  }

  async list(applicationId: string | undefined): Promise<CustomerRecord[]> {
    const rows = await listCustomers(this.db, applicationId);
    return rows.map((row) => ({ ...customerOut(row), application_id: row.application_id }));
  }

  async create(applicationId: string, input: CustomerIn): Promise<CustomerWithToken> {
    const token = generateSecret(TOKEN_PREFIX);
    const row: CustomersTable = {
      id: prefixedId('cus_'),
      application_id: applicationId,
      name: input.name,
      external_id: input.external_id ?? null,
      token_prefix: token.slice(0, LOOKUP_LENGTH),
      token_hash: sha256Hex(token),
      token_rotated_at: null,
      created_at: this.clock().toISOString(),
    };
    await insertCustomer(this.db, row);
    return { ...customerOut(row), token };
  }

  async get(applicationId: string, customerId: string): Promise<CustomerOut> {
    const row = await findCustomerOfApplication(this.db, applicationId, customerId);
    if (!row) throw new AppError('customer_not_found', { message: `No customer ${customerId} under this application` });
    return customerOut(row);
  }

  /** Issues a new token for the customer the presented (current) token belongs to. */
  async rotate(applicationId: string, presentedToken: string): Promise<CustomerWithToken> {
    const row = await this.findByToken(presentedToken);
    if (!row || row.application_id !== applicationId) throw new AppError('customer_not_found', { message: 'No customer with that token under this application' });
    const rotated = await this.replaceToken(row);
    if (!rotated) throw new AppError('customer_not_found', { message: 'That token was rotated meanwhile' });
    const { application_id: _app, ...customer } = rotated;
    return customer;
  }

  /** Support's rotation (operator API, admin CLI): by customer id, same effect as rotating with the token. */
  /** Any application's customer, for support (the operator API). */
  async getById(customerId: string): Promise<CustomerOut & { application_id: string }> {
    const row = await findCustomerById(this.db, customerId);
    if (!row) throw new AppError('customer_not_found', { message: `No customer ${customerId}` });
    return { ...customerOut(row), application_id: row.application_id };
  }

  async rotateById(customerId: string): Promise<CustomerWithToken & { application_id: string }> {
    const row = await findCustomerById(this.db, customerId);
    if (!row) throw new AppError('customer_not_found', { message: `No customer ${customerId}` });
    const rotated = await this.replaceToken({ ...customerOut(row), application_id: row.application_id, token_hash: row.token_hash });
    if (!rotated) throw new AppError('conflict', { message: 'Someone else rotated this token at the same moment: rotate again to get a token you can see' });
    return rotated;
  }

  /** Swaps in a new token unless the current one changed since it was read (a concurrent rotation wins once; the loser gets undefined). */
  private async replaceToken(row: CustomerRecord & { token_hash: string }): Promise<(CustomerWithToken & { application_id: string }) | undefined> {
    const token = generateSecret(TOKEN_PREFIX);
    const rotatedAt = this.clock().toISOString();
    const replaced = await replaceCustomerToken(this.db, row.id, row.token_hash, {
      token_prefix: token.slice(0, LOOKUP_LENGTH),
      token_hash: sha256Hex(token),
      token_rotated_at: rotatedAt,
    });
    if (!replaced) return undefined;
    return { ...customerOut(row), application_id: row.application_id, token };
  }

  /** The customer whose current token this is (the gateway's enrolment check), else undefined. */
  async findByToken(token: string): Promise<CustomerRecord & { token_hash: string } | undefined> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length <= LOOKUP_LENGTH) return undefined;
    const rows = await findCustomersByTokenPrefix(this.db, token.slice(0, LOOKUP_LENGTH));
    const row = rows.find((candidate) => secretMatchesHash(token, candidate.token_hash));
    return row ? { ...customerOut(row), application_id: row.application_id, token_hash: row.token_hash } : undefined;
  }
}
