// Setting a connector up from the command line (or the installer): enrol it with the code the
// software provider gave, remember the relay and TallyPrime's address before that, pair a company.
import os from 'node:os';
import { enrolmentCodeFromEnvironment } from '../core/config/load-config.js';
import { ConnectorService } from '../core/service/connector-service.js';
import { jsonLineSink } from '../core/support/logger.js';
import { configFor, print, required, UsageError, USAGE, type Flags } from './cli-support.js';

/** A service for one command: local state and the books, without the background loops. */
export async function withService<T>(flags: Flags, action: (service: ConnectorService) => Promise<T>): Promise<T> {
  const service = new ConnectorService(configFor(flags), [jsonLineSink((line) => process.stderr.write(line))]);
  try {
    return await action(service);
  } finally {
    await service.stop();
  }
}

export async function enroll(flags: Flags): Promise<void> {
  const code = flags.code?.trim() || flags.token?.trim() || enrolmentCodeFromEnvironment();
  const machineName = flags.name?.trim() || os.hostname();
  await withService(flags, async (service) => {
    const relayUrl = flags.relay?.trim() || service.status().relay.url;
    if (!relayUrl) throw new UsageError(`--relay is required (the relay's address, e.g. https://relay.example.com)\n${USAGE}`);
    if (!code) throw new UsageError(`--code is required (the customer token or setup code), or set LEDGERWIRE_ENROL_CODE\n${USAGE}`);
    const { connectorId } = await service.enrol({ relayUrl, token: code, machineName, ...(flags.books ? { booksUrl: flags.books } : {}) });
    print({ success: true, connector_id: connectorId, machine_name: machineName, relay_url: service.status().relay.url, data_dir: service.dataDir });
  });
}

export async function configure(flags: Flags): Promise<void> {
  if (!flags.relay && !flags.books) throw new UsageError(`configure takes --relay URL, --books URL or both\n${USAGE}`);
  // --books is taken as the service's stored setting here, not as this process's override.
  const { books, ...rest } = flags;
  await withService(rest, async (service) => {
    if (flags.relay) service.rememberRelayUrl(flags.relay);
    if (books) await service.setBooksUrl(books);
    const status = service.status();
    print({ success: true, relay_url: status.relay.url, books_url: status.books.url, data_dir: service.dataDir });
  });
}

export async function pair(flags: Flags): Promise<void> {
  const companyId = Number(required(flags, 'company-id'));
  if (!Number.isInteger(companyId) || companyId <= 0) throw new UsageError('--company-id must be a whole number above 0 (the service company id)');
  const booksCompany = required(flags, 'books-company');
  await withService(flags, async (service) => {
    const company = await service.pair(companyId, booksCompany);
    print({ success: true, company_id: company.company_id, books_company_guid: company.books_company_guid, books_company_name: company.books_company_name });
  });
}
