// The shape of one admin CLI command.
import type { RelayConfig } from '../config/load-config.js';
import type { RelayDatabase } from '../db/database.js';

/** What a mutating CLI command records: its action (the operator API's name for it) and its object. */
export type CliAudit = Readonly<{
  action: string;
  objectType: string;
  /** The object's id: a positional argument, or a dotted path into the command's result (first match wins). */
  objectId: Readonly<{ arg: number }> | Readonly<{ result: readonly string[] }>;
}>;

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
