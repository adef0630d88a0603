// The shape of one admin CLI command.
import type { RelayConfig } from '../config/load-config.js';
import type { RelayDatabase } from '../db/database.js';

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
}>;
