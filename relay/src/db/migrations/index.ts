// The numbered migrations, in order. Add a file `NNNN-what-it-does.ts` and list it here.
import type { Migration } from 'kysely';
import * as relaySettings from './0001-relay-settings.js';
import * as webhooks from './0010-webhooks.js';
import * as messaging from './0100-messaging.js';
import * as rateLimitCounters from './0101-rate-limit-counters.js';
import * as bridgeTenancy from './0200-bridge-tenancy.js';
import * as bridgeTransactions from './0201-bridge-transactions.js';
import * as bridgePulledData from './0202-bridge-pulled-data.js';
import * as transactionLeaseSession from './0203-transaction-lease-session.js';
import * as transactionDocuments from './0204-transaction-documents.js';
import * as connectors from './0250-connectors.js';
import * as transactionsByVoucherGuid from './0251-transactions-by-voucher-guid.js';
import * as pulledNamesUnbounded from './0252-pulled-names-unbounded.js';
import * as transactionRequestFingerprint from './0260-transaction-request-fingerprint.js';
import * as webhookAttemptResponses from './0270-webhook-attempt-responses.js';
import * as messagesDueByTenant from './0290-messages-due-by-tenant.js';
import * as operatorAccountsAndAudit from './0300-operator-accounts-and-audit.js';
import * as messageAttachments from './0310-message-attachments.js';
import * as messageSuppressions from './0311-message-suppressions.js';
import * as messageMetadataTags from './0312-message-metadata-tags.js';
import * as messageTestMode from './0313-message-test-mode.js';
import * as refusedSends from './0314-refused-sends.js';
import * as connectSessions from './0340-connect-sessions.js';
import * as auditEntrySource from './0370-audit-entry-source.js';

export const migrations: Record<string, Migration> = {
  '0001-relay-settings': relaySettings,
  '0010-webhooks': webhooks,
  '0100-messaging': messaging,
  '0101-rate-limit-counters': rateLimitCounters,
  '0200-bridge-tenancy': bridgeTenancy,
  '0201-bridge-transactions': bridgeTransactions,
  '0202-bridge-pulled-data': bridgePulledData,
  '0203-transaction-lease-session': transactionLeaseSession,
  '0204-transaction-documents': transactionDocuments,
  '0250-connectors': connectors,
  '0251-transactions-by-voucher-guid': transactionsByVoucherGuid,
  '0252-pulled-names-unbounded': pulledNamesUnbounded,
  '0260-transaction-request-fingerprint': transactionRequestFingerprint,
  '0270-webhook-attempt-responses': webhookAttemptResponses,
  '0290-messages-due-by-tenant': messagesDueByTenant,
  '0300-operator-accounts-and-audit': operatorAccountsAndAudit,
  '0310-message-attachments': messageAttachments,
  '0311-message-suppressions': messageSuppressions,
  '0312-message-metadata-tags': messageMetadataTags,
  '0313-message-test-mode': messageTestMode,
  '0314-refused-sends': refusedSends,
  '0340-connect-sessions': connectSessions,
  '0370-audit-entry-source': auditEntrySource,
};
