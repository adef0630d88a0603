// Runs one admin CLI command and, when it changes something, writes its audit entry (source "cli"),
// refused and failed runs included. admin.ts calls this; tests call it in-process the same way.
import { recordCliAction } from '../operator/services/audit/cli-audit.js';
import type { AdminCommand, AdminCommandContext } from '../foundation/admin-command.js';

export async function runAdminCommand(
  command: AdminCommand,
  context: AdminCommandContext,
  onAuditFailure: (error: unknown) => void = () => undefined,
): Promise<unknown> {
  let result: unknown;
  let failure: unknown;
  try {
    result = await command.run(context);
  } catch (error) {
    failure = error;
  }
  if (command.audit) {
    try {
      await recordCliAction(context.database.db, { audit: command.audit, args: context.args, options: context.options, result, error: failure });
    } catch (error) {
      // The action happened (or was refused) whatever the log says: report the gap, do not hide the answer.
      onAuditFailure(error);
    }
  }
  if (failure !== undefined) throw failure;
  return result;
}
