// Operator actions taken through the admin CLI go into the same audit log as /admin/v1 requests, with
// `source: "cli"`. Whoever runs the CLI holds the relay's DATA_DIR (or DATABASE_URL), so acts as the
// bootstrap token does: the actor is `bootstrap`, named "admin CLI", and the user agent carries the
// operating-system user who typed the command. A refused or failed command is recorded too, with the
// HTTP status the same refusal would have had through the operator API.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CliAudit } from '../../../foundation/admin-command.js';
import { AppError } from '../../../errors/catalogue.js';
import { BOOTSTRAP_ACTOR_ID } from '../operator-account-service.js';
import { auditDetails } from './audit-details.js';
import { AuditLogRepository } from '../../store/audit-log-repository.js';

export type CliActionRecord = Readonly<{
  audit: CliAudit;
  args: readonly string[];
  options: Readonly<Record<string, string>>;
  /** The command's result; undefined when it failed. */
  result?: unknown;
  /** The error it failed with, if it did. */
  error?: unknown;
  now?: Date;
}>;

function pathValue(value: unknown, dotted: string): string | undefined {
  let cursor = value;
  for (const part of dotted.split('.')) cursor = typeof cursor === 'object' && cursor !== null ? (cursor as Record<string, unknown>)[part] : undefined;
  return typeof cursor === 'string' || typeof cursor === 'number' ? String(cursor) : undefined;
}

function objectIdOf(record: CliActionRecord): string | null {
  const from = record.audit.objectId;
  if ('arg' in from) return record.args[from.arg]?.slice(0, 100) ?? null;
  for (const dotted of from.result) {
    const id = pathValue(record.result, dotted);
    if (id !== undefined) return id.slice(0, 100);
  }
  return null;
}

/** The status the operator API would have answered: 200, the AppError's own, 400 for bad input, else 500. */
export function cliStatusOf(error: unknown): number {
  if (error === undefined) return 200;
  if (error instanceof AppError) return error.status;
  if (error instanceof Error && (error.name === 'ZodError' || error.name === 'CliUsageError')) return 400;
  return 500;
}

export async function recordCliAction(db: Kysely<Database>, record: CliActionRecord): Promise<void> {
  await new AuditLogRepository(db).append({
    at: (record.now ?? new Date()).toISOString(),
    actor_id: BOOTSTRAP_ACTOR_ID,
    actor_name: 'admin CLI',
    actor_role: 'admin',
    action: record.audit.action,
    object_type: record.audit.objectType,
    object_id: objectIdOf(record),
    status: cliStatusOf(record.error),
    ip: 'local',
    user_agent: `ledgerwire-admin (${os.userInfo().username})`.slice(0, 500),
    request_id: `cli_${randomUUID()}`,
    details: JSON.stringify(auditDetails({ args: [...record.args] }, { ...record.options })),
    source: 'cli',
  });
}
