// Admin CLI commands of the accounting bridge: the same services as its operator API.
import { ApiKeyIn, CompanyPairIn, CompanySettingsIn, OperatorCompanyAttachIn, WEBHOOK_EVENT_TYPES } from '@ledgerwire/shared';
import type { AdminCommand, AdminCommandContext } from '../../foundation/admin-command.js';
import { ApplicationService } from '../services/applications/application-service.js';
import { CompanyRepository } from '../store/companies/company-repository.js';
import { CompanyService } from '../services/companies/company-service.js';
import { ConnectorRepository } from '../store/connectors/connector-repository.js';
import { CustomerService } from '../services/customers/customer-service.js';
import { TransactionService } from '../services/jobs/transaction-service.js';
import { secretBoxFor } from '../../security/encryption-key.js';
import { WebhookService } from '../../webhooks/services/webhook-service.js';

function argument(context: AdminCommandContext, index: number, name: string): string {
  const value = context.args[index];
  if (value === undefined || value === '') throw new Error(`Missing <${name}>`);
  return value;
}

function yesNo(value: string | undefined, option: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (['yes', 'true', '1', 'on'].includes(value)) return true;
  if (['no', 'false', '0', 'off'].includes(value)) return false;
  throw new Error(`--${option} must be yes or no`);
}

function companyService({ database, config }: AdminCommandContext): CompanyService {
  const db = database.db;
  const connectors = new ConnectorRepository({ db });
  // Attach and detach queue company.linked / company.unlinked; the running relay's delivery loop sends them.
  const webhooks = new WebhookService({ db, capabilities: database.capabilities, allowPrivateUrls: config.webhookAllowPrivateUrls, eventTypes: WEBHOOK_EVENT_TYPES, secretBox: secretBoxFor(config) });
  return new CompanyService({
    companies: new CompanyRepository({ db }),
    customers: new CustomerService({ db }),
    connectors: () => connectors,
    events: () => webhooks,
    log: { error: (object, message) => process.stderr.write(`${message}: ${JSON.stringify(object)}\n`) },
  });
}

function companyIdOf(context: AdminCommandContext): number {
  const raw = argument(context, 0, 'company_id');
  if (!/^[1-9]\d*$/.test(raw)) throw new Error('<company_id> must be the service’s integer company id');
  return Number(raw);
}

export const bridgeAdminCommands: Record<string, AdminCommand> = {
  'bridge-create-application': {
    usage: 'bridge-create-application <name>',
    describe: 'Create an accounting-bridge application',
    run: (context) => new ApplicationService({ db: context.database.db }).createApplication({ name: argument(context, 0, 'name') }),
    audit: { action: 'application.create', objectType: 'application', objectId: { result: ['id', 'application.id'] } },
  },
  'bridge-list-applications': {
    usage: 'bridge-list-applications',
    describe: 'List accounting-bridge applications',
    run: (context) => new ApplicationService({ db: context.database.db }).listApplications(),
  },
  'bridge-create-key': {
    usage: 'bridge-create-key <application_id> --environment test|live [--capabilities pull.master,report.stock,report.gst]',
    describe: 'Create an API key; prints the credential once',
    run: async (context) => {
      const input = ApiKeyIn.parse({
        environment: context.options['environment'],
        capabilities: (context.options['capabilities'] ?? '').split(',').filter((c) => c !== ''),
      });
      return new ApplicationService({ db: context.database.db }).createKey(argument(context, 0, 'application_id'), input);
    },
    audit: { action: 'api_key.create', objectType: 'api_key', objectId: { result: ['key_id'] } },
  },
  'bridge-revoke-key': {
    usage: 'bridge-revoke-key <key_id>',
    describe: 'Revoke an API key at once',
    run: (context) => new ApplicationService({ db: context.database.db }).revokeKey(argument(context, 0, 'key_id')),
    audit: { action: 'api_key.revoke', objectType: 'api_key', objectId: { arg: 0 } },
  },
  'bridge-company-settings': {
    usage: 'bridge-company-settings <company_id> [--pull-masters yes|no] [--stock yes|no] [--gst yes|no]',
    describe: 'Switch the masters pull and the stock / GST reports of a company',
    run: async (context) => {
      const settings = CompanySettingsIn.parse({
        pull_masters: yesNo(context.options['pull-masters'], 'pull-masters'),
        reports: { stock: yesNo(context.options['stock'], 'stock'), gst: yesNo(context.options['gst'], 'gst') },
      });
      return companyService(context).updateSettings(companyIdOf(context), settings);
    },
    audit: { action: 'company.update_settings', objectType: 'company', objectId: { arg: 0 } },
  },
  'bridge-pair-company': {
    usage: 'bridge-pair-company <company_id> --connector <connector_id> --books-guid <guid> [--books-name <name>]',
    describe: 'Pair a company with a connector and a books company',
    run: async (context) => {
      const input = CompanyPairIn.parse({
        connector_id: context.options['connector'],
        books_company_guid: context.options['books-guid'],
        ...(context.options['books-name'] ? { books_company_name: context.options['books-name'] } : {}),
      });
      return companyService(context).pair(companyIdOf(context), input);
    },
    audit: { action: 'company.pair', objectType: 'company', objectId: { arg: 0 } },
  },
  'bridge-show-application': {
    usage: 'bridge-show-application <application_id>',
    describe: 'One accounting-bridge application',
    run: (context) => new ApplicationService({ db: context.database.db }).getApplication(argument(context, 0, 'application_id')),
  },
  'bridge-rotate-customer-token': {
    usage: 'bridge-rotate-customer-token <customer_id>',
    describe: 'Rotate a customer’s token; prints the new one once (the old one enrols no more, enrolled connectors keep working)',
    run: (context) => new CustomerService({ db: context.database.db }).rotateById(argument(context, 0, 'customer_id')),
    audit: { action: 'customer.rotate_token', objectType: 'customer', objectId: { arg: 0 } },
  },
  'bridge-show-company': {
    usage: 'bridge-show-company <company_id>',
    describe: 'One company with its customer, pairing and settings',
    run: async (context) => companyService(context).operatorFind(companyIdOf(context)),
  },
  'bridge-attach-company': {
    usage: 'bridge-attach-company <company_id> --customer <customer_id>',
    describe: 'Attach a company to a customer of its application (raises company.linked)',
    run: async (context) => {
      const input = OperatorCompanyAttachIn.parse({ customer_id: context.options['customer'] });
      return companyService(context).operatorAttach(companyIdOf(context), input.customer_id);
    },
    audit: { action: 'company.attach_customer', objectType: 'company', objectId: { arg: 0 } },
  },
  'bridge-detach-company': {
    usage: 'bridge-detach-company <company_id>',
    describe: 'Detach a company from its customer (raises company.unlinked)',
    run: async (context) => companyService(context).operatorDetach(companyIdOf(context)),
    audit: { action: 'company.detach_customer', objectType: 'company', objectId: { arg: 0 } },
  },
  'bridge-disconnect-company': {
    usage: 'bridge-disconnect-company <company_id>',
    describe: 'Sever a company’s connector pairing; its jobs wait until it is paired again',
    run: async (context) => companyService(context).operatorDisconnect(companyIdOf(context)),
    audit: { action: 'company.disconnect', objectType: 'company', objectId: { arg: 0 } },
  },
  'bridge-show-transaction': {
    usage: 'bridge-show-transaction <job_id>',
    describe: 'A transaction with its submitted document and rendered XML',
    run: async (context) => {
      const connectors = new ConnectorRepository({ db: context.database.db });
      return new TransactionService({ db: context.database.db, connectors: () => connectors }).operatorGet(argument(context, 0, 'job_id'));
    },
  },
};
