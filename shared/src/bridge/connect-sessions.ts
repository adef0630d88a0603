// Connect sessions: an integrator's link that takes one end-user business from "install the connector"
// to a paired company. Bodies of /api/v1/connect-sessions, of the hosted page's own calls (/connect/…),
// and the setup code's shape, which the relay and the connector both recognise.
import { z } from 'zod';

/** Characters a setup code is made of: no 0/O and no 1/I, so it reads aloud and types without doubt. */
export const SETUP_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const SETUP_CODE_LENGTH = 8;

/**
 * The setup code in its one canonical form (`K7QPM3XD`), or undefined when the text cannot be one.
 * Lower case, spaces and dashes are accepted, as a person types what they were read.
 */
export function normaliseSetupCode(text: string): string | undefined {
  const compact = text.replace(/[\s-]+/g, '').toUpperCase();
  if (compact.length !== SETUP_CODE_LENGTH) return undefined;
  for (const character of compact) if (!SETUP_CODE_ALPHABET.includes(character)) return undefined;
  return compact;
}

/** How a setup code is shown: two groups of four, `K7QP-M3XD`. */
export function formatSetupCode(canonical: string): string {
  return `${canonical.slice(0, 4)}-${canonical.slice(4)}`;
}

export const CONNECT_SESSION_STATUSES = ['pending', 'connector_enrolled', 'books_found', 'completed', 'expired', 'cancelled'] as const;
export const ConnectSessionStatus = z.enum(CONNECT_SESSION_STATUSES);
export type ConnectSessionStatus = z.infer<typeof ConnectSessionStatus>;

export const MAX_CONNECT_SESSION_SECONDS = 7 * 24 * 3600;

export const ConnectSessionIn = z
  .object({
    customer_id: z.string({ error: 'is required' }).min(1, 'is required').max(100),
    company_id: z.number().int().positive().max(2_147_483_647).optional().describe('An existing company of the customer to connect'),
    company_name: z.string().trim().min(1).max(200).optional().describe('A company to create for the customer and connect'),
    return_url: z
      .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
      .max(2000)
      .optional()
      .describe('Where the hosted page sends the end user when the company is connected'),
    expires_in_seconds: z
      .number()
      .int()
      .min(300, 'must be at least 300 (five minutes)')
      .max(MAX_CONNECT_SESSION_SECONDS, `must be at most ${MAX_CONNECT_SESSION_SECONDS} (seven days)`)
      .optional()
      .describe('Lifetime of the link and the setup code; 7 days when left out'),
  })
  .strict()
  .refine((body) => (body.company_id === undefined) !== (body.company_name === undefined), {
    message: 'give exactly one of company_id (an existing company of the customer) or company_name (a company to create)',
    path: ['company_id'],
  });
export type ConnectSessionIn = z.infer<typeof ConnectSessionIn>;

export const ConnectSessionOut = z.object({
  id: z.string(),
  customer_id: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  status: ConnectSessionStatus,
  return_url: z.string().nullable(),
  connector_id: z.string().nullable(),
  expires_at: z.string(),
  connector_enrolled_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  created_at: z.string(),
});
export type ConnectSessionOut = z.infer<typeof ConnectSessionOut>;

export const ConnectSessionCreatedOut = z.object({
  success: z.literal(true),
  connect_session: ConnectSessionOut.extend({
    url: z.string().describe('The hosted page to send the end user; it is the credential, shown only here'),
    setup_code: z.string().describe('The code the end user types into the connector (K7QP-M3XD); shown only here'),
  }),
});
export type ConnectSessionCreatedOut = z.infer<typeof ConnectSessionCreatedOut>;

export const ConnectSessionResultOut = z.object({ success: z.literal(true), connect_session: ConnectSessionOut });
export const ConnectSessionListOut = z.object({ success: z.literal(true), connect_sessions: z.array(ConnectSessionOut) });

// The hosted page's view of its session: names only, never ids or secrets of the integrator.
export const ConnectPageWaiting = z.enum(['connector_offline', 'books_closed', 'no_company_open', 'enrolled_for_another_customer']);
export type ConnectPageWaiting = z.infer<typeof ConnectPageWaiting>;

export const ConnectPageOut = z.object({
  success: z.literal(true),
  status: ConnectSessionStatus,
  customer_name: z.string(),
  company_name: z.string(),
  expires_at: z.string(),
  return_url: z.string().nullable(),
  installer: z.object({ available: z.boolean(), file_name: z.string().nullable(), size_bytes: z.number().nullable(), sha256: z.string().nullable() }),
  connector: z.object({ online: z.boolean(), machine_name: z.string(), books_running: z.boolean() }).nullable(),
  books_companies: z.array(z.object({ guid: z.string(), name: z.string() })),
  /** What the page is waiting for, when it waits on something the shop owner can do. */
  waiting: ConnectPageWaiting.nullable(),
  paired_books_company_name: z.string().nullable(),
});
export type ConnectPageOut = z.infer<typeof ConnectPageOut>;

export const ConnectPageChooseIn = z.object({ books_company_guid: z.string().min(1).max(200) }).strict();
export type ConnectPageChooseIn = z.infer<typeof ConnectPageChooseIn>;

/** The body of a connect_session.completed webhook request. */
export const ConnectSessionCompletedEventOut = z.object({
  event_id: z.string().describe('evt_…, also the webhook-id header: deduplicate on it'),
  type: z.literal('connect_session.completed'),
  created_at: z.string().describe('When the session completed (ISO 8601)'),
  data: z.object({
    connect_session_id: z.string(),
    customer_id: z.string(),
    company_id: z.number().int(),
    company_name: z.string().nullable(),
    connector_id: z.string().nullable(),
    machine_name: z.string().nullable(),
    books_company_guid: z.string().nullable(),
    books_company_name: z.string().nullable(),
    occurred_at: z.string(),
  }),
});
export type ConnectSessionCompletedEventOut = z.infer<typeof ConnectSessionCompletedEventOut>;
