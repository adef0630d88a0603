// The shape of one admin CLI command.
import type { RelayConfig } from '../config/load-config.js';
import type { RelayDatabase } from '../db/database.js';
import type { CliAudit } from '../operator/audit/cli-audit.js';

export type AdminCommandContext = Readonly<{
  config: RelayConfig;
  database: RelayDatabase;
  /** Positional arguments after the command name. */
  args: readonly string[];
  /** --name value options. */
  options: Readonly<Record<string, string>>;
}>;

export type AdminCommand = Readonly<{
  usage: string;
  describe: string;
  run(context: AdminCommandContext): Promise<unknown>;
  /** Present on commands that change something: each run, refused ones included, goes into the audit log. */
  audit?: CliAudit;
}>;
