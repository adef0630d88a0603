// The hosted connect page's view of one session, found by the page token its URL carries (no sign-in:
// the URL is the credential, kept only as an HMAC under a relay key). It shows only the customer's and company's names,
// what the connector reports, and what the page waits for, in terms a shop owner can act on; and it
// takes the owner's choice of TallyPrime company, which pairs it as the connector itself would.
import type { ConnectPageOut, ConnectPageWaiting } from '@ledgerwire/shared';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors/catalogue.js';
import type { KeyedDigest } from '../../security/keyed-digest.js';
import { systemClock, type Clock } from '../../bridge/store/bridge-ids.js';
import type { CompanyRepository } from '../../bridge/store/companies/company-repository.js';
import type { ConnectorDirectory, ConnectorRecord } from '../../bridge/services/companies/connector-directory.js';
import type { CustomerService } from '../../bridge/services/customers/customer-service.js';
import { effectiveStatus, PAGE_TOKEN_PREFIX } from '../../bridge/services/connect-sessions/connect-session-service.js';
import type { ConnectSessionRow, ConnectSessionStore } from '../../bridge/store/connect-sessions/connect-session-store.js';

export type InstallerFacts = Readonly<{ path: string; fileName: string; sizeBytes: number; sha256: string }>;

/** Size and SHA-256 of the installer, read once: the file is part of the deployment, not changed under a running relay. */
export async function readInstallerFacts(file: string): Promise<InstallerFacts> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return { path: file, fileName: path.basename(file), sizeBytes: fs.statSync(file).size, sha256: hash.digest('hex') };
}

/** Pairs as the session's connector would (connector-pairing-service.ts), so the same completion follows. */
export type PairAsConnector = (
  connector: { connectorId: string; customerId: string; applicationId: string },
  input: { company_id: number; books_company_guid: string; books_company_name: string },
) => Promise<unknown>;

export class ConnectPageService {
  private readonly clock: Clock;
  private installer: Promise<InstallerFacts | undefined> | undefined;

  constructor(
    private readonly deps: {
      store: ConnectSessionStore;
      /** Digests the page token as the session's creation did. */
      secrets: KeyedDigest;
      customers: Pick<CustomerService, 'get'>;
      companies: Pick<CompanyRepository, 'get'>;
      connectors: ConnectorDirectory;
      pair: PairAsConnector;
      installerFile: string | undefined;
      clock?: Clock;
    },
  ) {
    this.clock = deps.clock ?? systemClock;
  }

  installerFacts(): Promise<InstallerFacts | undefined> {
    const file = this.deps.installerFile;
    this.installer ??= file === undefined ? Promise.resolve(undefined) : readInstallerFacts(file);
    return this.installer;
  }

  async view(pageToken: string): Promise<ConnectPageOut> {
    const row = await this.session(pageToken);
    const [customer, company, connector, installer] = await Promise.all([
      this.deps.customers.get(row.application_id, row.customer_id),
      this.deps.companies.get(row.company_id),
      row.connector_id === null ? undefined : this.deps.connectors.get(row.connector_id),
      this.installerFacts(),
    ]);
    const status = effectiveStatus(row, connector, this.clock());
    const live = status === 'connector_enrolled' || status === 'books_found';
    return {
      success: true,
      status,
      customer_name: customer.name,
      company_name: company?.name ?? '',
      expires_at: row.expires_at,
      return_url: status === 'completed' ? row.return_url : null,
      installer: installer
        ? { available: true, file_name: installer.fileName, size_bytes: installer.sizeBytes, sha256: installer.sha256 }
        : { available: false, file_name: null, size_bytes: null, sha256: null },
      connector: connector && (live || status === 'completed') ? { online: connector.online, machine_name: connector.machine_name, books_running: connector.books_running } : null,
      books_companies: connector && live && connector.online ? [...connector.open_companies] : [],
      waiting: connector && live ? await this.waitingFor(row, connector) : null,
      paired_books_company_name: status === 'completed' ? (company?.books_company_name ?? null) : null,
    };
  }

  /** The shop owner says which of TallyPrime's open companies is the session's company: it is paired, and the session completes. */
  async choose(pageToken: string, booksCompanyGuid: string): Promise<ConnectPageOut> {
    const row = await this.session(pageToken);
    const connector = row.connector_id === null ? undefined : await this.deps.connectors.get(row.connector_id);
    const status = effectiveStatus(row, connector, this.clock());
    if (!connector || (status !== 'connector_enrolled' && status !== 'books_found')) {
      throw new AppError('connect_step_not_ready', { message: status === 'pending' ? 'Type the setup code into the connector first' : `This connect link is ${status}` });
    }
    const books = connector.online ? connector.open_companies.find((open) => open.guid === booksCompanyGuid) : undefined;
    if (!books) {
      throw new AppError('connect_step_not_ready', { message: 'TallyPrime on that computer does not have this company open now: open it in TallyPrime, then choose again' });
    }
    await this.deps.pair(
      { connectorId: connector.id, customerId: row.customer_id, applicationId: row.application_id },
      { company_id: row.company_id, books_company_guid: books.guid, books_company_name: books.name },
    );
    return this.view(pageToken);
  }

  private async session(pageToken: string): Promise<ConnectSessionRow> {
    const row = pageToken.startsWith(PAGE_TOKEN_PREFIX) ? await this.deps.store.findByPageTokenHash(this.deps.secrets.digest(pageToken)) : undefined;
    if (!row || !this.deps.secrets.matches(pageToken, row.page_token_hash)) throw new AppError('connect_link_invalid');
    return row;
  }

  private async waitingFor(row: ConnectSessionRow, connector: ConnectorRecord): Promise<ConnectPageWaiting | null> {
    if (!connector.online) {
      // The same computer enrolled since for another business: its connector now works for them.
      const all = await this.deps.connectors.listForApplication(row.application_id);
      const taken = all.some((other) => other.machine_name === connector.machine_name && other.customer_id !== row.customer_id && other.online);
      return taken ? 'enrolled_for_another_customer' : 'connector_offline';
    }
    if (!connector.books_running) return 'books_closed';
    if (connector.open_companies.length === 0) return 'no_company_open';
    return null;
  }
}
