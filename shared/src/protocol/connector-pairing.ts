// Pairing from the connector's side, over HTTP with the connector credential: list the companies of the
// connector's customer, pair one of them to a books company open on this machine, or unpair it.
import { z } from 'zod';
import { ProtocolCompanyId } from './protocol-common.js';

export const ConnectorCompanyOut = z.object({
  company_id: ProtocolCompanyId,
  name: z.string(),
  books_company_guid: z.string().nullable(),
  books_company_name: z.string().nullable(),
  /** The connector the company is paired to (this one, another machine of the customer, or none). */
  connector_id: z.string().nullable(),
});
export type ConnectorCompanyOut = z.infer<typeof ConnectorCompanyOut>;

export const ConnectorCompaniesOut = z.object({
  success: z.literal(true),
  companies: z.array(ConnectorCompanyOut),
});
export type ConnectorCompaniesOut = z.infer<typeof ConnectorCompaniesOut>;

export const ConnectorPairingIn = z.object({
  company_id: ProtocolCompanyId,
  books_company_guid: z.string().min(1).max(200),
  books_company_name: z.string().min(1).max(500),
});
export type ConnectorPairingIn = z.infer<typeof ConnectorPairingIn>;

export const ConnectorPairingParams = z.object({
  company_id: z.coerce.number().int().positive(),
});

export const ConnectorPairingOut = z.object({
  success: z.literal(true),
  company: ConnectorCompanyOut,
});
export type ConnectorPairingOut = z.infer<typeof ConnectorPairingOut>;
