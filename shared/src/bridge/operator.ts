// Operator API (/admin/v1) bodies for the accounting bridge: applications, API keys, company
// settings and pairing, and the support views (transactions with their rendered XML).
import { z } from 'zod';
import { CompanyOut } from './companies.js';
import { CustomerOut, CustomerWithTokenOut } from './customers.js';
import { TransactionRecordOut } from './transactions.js';

export const BRIDGE_CAPABILITIES = ['pull.master', 'report.stock', 'report.gst'] as const;
export const BridgeCapability = z.enum(BRIDGE_CAPABILITIES);
export type BridgeCapability = z.infer<typeof BridgeCapability>;

export const ApplicationIn = z.object({ name: z.string().trim().min(1).max(200) });
export type ApplicationIn = z.infer<typeof ApplicationIn>;

export const ApplicationRecordOut = z.object({ id: z.string(), name: z.string(), created_at: z.string() });
export type ApplicationRecordOut = z.infer<typeof ApplicationRecordOut>;

export const ApplicationOut = z.object({ success: z.literal(true), application: ApplicationRecordOut });
export const ApplicationListOut = z.object({ success: z.literal(true), applications: z.array(ApplicationRecordOut) });

export const ApiKeyIn = z.object({
  environment: z.enum(['test', 'live']),
  capabilities: z.array(BridgeCapability).default([]),
});
export type ApiKeyIn = z.infer<typeof ApiKeyIn>;

export const ApiKeyRecordOut = z.object({
  key_id: z.string(),
  application_id: z.string(),
  environment: z.enum(['test', 'live']),
  capabilities: z.array(z.string()),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyRecordOut = z.infer<typeof ApiKeyRecordOut>;

export const ApiKeyCreatedOut = ApiKeyRecordOut.extend({
  success: z.literal(true),
  secret: z.string().describe('Shown only in this answer; the relay keeps its SHA-256'),
  credential: z.string().describe('`<key_id>:<secret>`, for `Authorization: Bearer <credential>`'),
});
export type ApiKeyCreatedOut = z.infer<typeof ApiKeyCreatedOut>;

export const ApiKeyOut = z.object({ success: z.literal(true), key: ApiKeyRecordOut });
export const ApiKeyListOut = z.object({ success: z.literal(true), keys: z.array(ApiKeyRecordOut) });

export const CompanySettingsIn = z
  .object({
    pull_masters: z.boolean().optional(),
    reports: z.object({ stock: z.boolean().optional(), gst: z.boolean().optional() }).strict().optional(),
  })
  .strict();
export type CompanySettingsIn = z.infer<typeof CompanySettingsIn>;

export const CompanyPairIn = z
  .object({
    connector_id: z.string().min(1).max(60),
    books_company_guid: z.string().min(1).max(200),
    books_company_name: z.string().min(1).max(500).optional(),
  })
  .strict();
export type CompanyPairIn = z.infer<typeof CompanyPairIn>;

export const OperatorCompanyListOut = z.object({ success: z.literal(true), companies: z.array(CompanyOut.extend({ application_id: z.string() })) });
export const OperatorCustomerListOut = z.object({ success: z.literal(true), customers: z.array(CustomerOut.extend({ application_id: z.string() })) });

export const OperatorTransactionListQuery = z.object({
  application_id: z.string().optional(),
  company_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  status: z.enum(['queued', 'processing', 'completed', 'failed']).optional(),
  job_type: z.enum(['voucher', 'master']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const OperatorTransactionOut = TransactionRecordOut.extend({
  application_id: z.string(),
  connector_id: z.string().nullable(),
  lease_expires_at: z.string().nullable(),
  document: z.unknown().describe('The body the caller submitted'),
  xml: z.string().describe('The import envelope rendered for the books'),
});
export const OperatorTransactionListOut = z.object({
  success: z.literal(true),
  total: z.number().int(),
  transactions: z.array(TransactionRecordOut.extend({ application_id: z.string() })),
});
export const OperatorTransactionDetailOut = z.object({ success: z.literal(true), transaction: OperatorTransactionOut });

export const ConnectorRecordOut = z.object({
  id: z.string(),
  customer_id: z.string(),
  application_id: z.string(),
  machine_name: z.string(),
  version: z.string().nullable(),
  online: z.boolean(),
  books_running: z.boolean(),
  open_companies: z.array(z.object({ guid: z.string(), name: z.string() })),
  last_seen_at: z.string().nullable(),
  created_at: z.string(),
});
export type ConnectorRecordOut = z.infer<typeof ConnectorRecordOut>;
export const ConnectorListOut = z.object({ success: z.literal(true), connectors: z.array(ConnectorRecordOut) });

// Support tasks (operator API): one application, one company, the customer link, disconnect, and a
// customer token rotated by customer id (the new token is shown only in that answer).
export const OperatorCompanyRecordOut = CompanyOut.extend({ application_id: z.string() });
export type OperatorCompanyRecordOut = z.infer<typeof OperatorCompanyRecordOut>;
export const OperatorCompanyOut = z.object({ success: z.literal(true), company: OperatorCompanyRecordOut });
export type OperatorCompanyOut = z.infer<typeof OperatorCompanyOut>;

export const OperatorCompanyAttachIn = z.object({ customer_id: z.string().trim().min(1, 'customer_id is required') }).strict();
export type OperatorCompanyAttachIn = z.infer<typeof OperatorCompanyAttachIn>;

export const OperatorCustomerTokenOut = z.object({
  success: z.literal(true),
  customer: CustomerWithTokenOut.extend({ application_id: z.string() }),
});
export type OperatorCustomerTokenOut = z.infer<typeof OperatorCustomerTokenOut>;
