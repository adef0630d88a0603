// Operator accounts (/admin/v1/operators) and the operator audit log (/admin/v1/audit-log).
// Roles are ordered: viewer < support < admin; each includes what the lower ones may do.
import { z } from 'zod';

export const OPERATOR_ROLES = ['viewer', 'support', 'admin'] as const;
export const OperatorRole = z.enum(OPERATOR_ROLES).describe('viewer: reads; support: + pairing, disconnects, redeliveries, customer tokens; admin: + keys, applications, tenants, operators');
export type OperatorRole = z.infer<typeof OperatorRole>;

/** True when `held` is at least `needed`. */
export function roleAllows(held: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(held) >= OPERATOR_ROLES.indexOf(needed);
}

export const OperatorAccountIn = z.strictObject({
  name: z.string().trim().min(1).max(100).describe('Who this is, e.g. "Asha (support)"; shown in the audit log'),
  role: OperatorRole,
});
export type OperatorAccountIn = z.infer<typeof OperatorAccountIn>;

export const OperatorAccount = z
  .object({
    id: z.string().describe('opr_…'),
    name: z.string(),
    role: OperatorRole,
    status: z.enum(['active', 'revoked']),
    created_at: z.string(),
    created_by: z.string().describe('The actor that created it: an account id or "bootstrap"'),
    token_rotated_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'OperatorAccount' });
export type OperatorAccount = z.infer<typeof OperatorAccount>;

export const OperatorAccountOut = z.object({ success: z.literal(true), operator: OperatorAccount });
export type OperatorAccountOut = z.infer<typeof OperatorAccountOut>;

export const OperatorAccountTokenOut = z.object({
  success: z.literal(true),
  operator: OperatorAccount,
  token: z.string().describe('lwop_…: shown only in this answer; only its SHA-256 is kept'),
});
export type OperatorAccountTokenOut = z.infer<typeof OperatorAccountTokenOut>;

export const OperatorAccountListOut = z.object({ success: z.literal(true), operators: z.array(OperatorAccount) });
export type OperatorAccountListOut = z.infer<typeof OperatorAccountListOut>;

export const AuditOutcome = z.enum(['succeeded', 'refused', 'failed']);

export const AUDIT_SOURCES = ['api', 'cli'] as const;
export const AuditSource = z.enum(AUDIT_SOURCES).describe('api: an /admin/v1 request (the console included); cli: the admin CLI on the relay\'s machine');
export type AuditSource = z.infer<typeof AuditSource>;

export const AuditEntry = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actor_id: z.string().describe('An operator account id, or "bootstrap" for RELAY_ADMIN_TOKEN / the generated token'),
    actor_name: z.string(),
    actor_role: OperatorRole,
    action: z.string().describe('e.g. company.pair, company.disconnect, operator.create'),
    object_type: z.string(),
    object_id: z.string().nullable(),
    status: z.number().int().describe('The HTTP status answered'),
    outcome: AuditOutcome,
    ip: z.string(),
    user_agent: z.string().nullable(),
    request_id: z.string(),
    details: z.record(z.string(), z.unknown()).describe('The request fields that matter; never a secret'),
    source: AuditSource,
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogQuery = z.strictObject({
  actor: z.string().min(1).max(100).optional().describe('An account id or "bootstrap"'),
  object_type: z.string().min(1).max(50).optional(),
  object_id: z.string().min(1).max(100).optional(),
  action: z.string().min(1).max(100).optional(),
  source: AuditSource.optional(),
  since: z.iso.datetime({ offset: true }).optional().describe('Inclusive, ISO 8601'),
  until: z.iso.datetime({ offset: true }).optional().describe('Exclusive, ISO 8601'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before_id: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('Page on: the smallest id of the previous page'),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

export const AuditLogOut = z.object({
  success: z.literal(true),
  entries: z.array(AuditEntry).describe('Newest first'),
  next_before_id: z.number().int().nullable().describe('Pass as before_id for the next page; null at the end'),
});
export type AuditLogOut = z.infer<typeof AuditLogOut>;
