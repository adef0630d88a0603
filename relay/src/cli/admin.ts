// `npm run -s admin -- <command> [args] [--option value]`: the operator API's services from a shell.
// stdout carries the answer and nothing else — JSON, indented on a terminal, one line when piped or
// with --json — so `npm run -s admin -- … | jq` works; every other word (errors, hints, logs) goes to
// stderr, each error once, in one line per problem, exit code 1. Commands that change something are
// written to the operator audit log with source "cli" (operator/audit/cli-audit.ts), refused ones too.
import process from 'node:process';
import { ConfigError, loadConfigFromProcess, npmScriptInvocationFromProcess } from '../config/load-config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { AppError } from '../errors/catalogue.js';
import type { AdminCommand } from '../foundation/admin-command.js';
import { adminCommands } from './admin-commands.js';
import { runAdminCommand } from './run-admin-command.js';

/** Options that take no value: `--json whoami` must not read "whoami" as the value of --json. */
const FLAGS = new Set(['json', 'help', 'inactive']);

function parseArgs(argv: readonly string[]) {
  const args: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (inline !== undefined) options[name] = inline;
      else if (!FLAGS.has(name) && argv[i + 1] !== undefined && !argv[i + 1]?.startsWith('--')) options[name] = argv[++i] ?? '';
      else options[name] = 'true';
    } else args.push(arg);
  }
  return { args, options };
}

function usage(): string {
  const lines = Object.values(adminCommands).map((c) => `  ${c.usage.padEnd(48)} ${c.describe}`);
  return `Usage: npm run -s admin -- <command> [--json]\n\nCommands:\n${lines.join('\n')}\n\n` +
    'The answer is JSON on stdout (one line when piped or with --json); messages go to stderr.\n' +
    'Use "npm run -s" (silent): without it npm prints its command banner on stdout too, ahead of the JSON.\n';
}

/** One line per problem, in words: a zod refusal lists its fields, an AppError its details. */
export function describeCliError(error: unknown): string {
  if (error instanceof AppError) {
    const details = error.details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message));
    return [error.message, ...details.filter((d) => d !== error.message)].join('\n  ');
  }
  if (error instanceof Error && error.name === 'ZodError' && 'issues' in error && Array.isArray(error.issues)) {
    const issues = (error.issues as { path: (string | number)[]; message: string }[]).map((i) => `--${i.path.join('.') || 'input'}: ${i.message}`);
    return `Invalid input\n  ${issues.join('\n  ')}`;
  }
  if (error instanceof ConfigError || error instanceof Error) return error.message;
  return String(error);
}

/**
 * npm prints `> admin` and the command line on stdout before the script runs, unless run with -s. The
 * JSON cannot be cleaned of it from in here, so say what to type when a pipe is about to choke on it.
 */
function warnAboutNpmBanner(): void {
  if (npmScriptInvocationFromProcess('admin').bannerOnStdout && !process.stdout.isTTY) {
    process.stderr.write('admin: npm printed its "> admin" banner on stdout ahead of this JSON; run "npm run -s admin -- …" when piping (e.g. to jq)\n');
  }
}

async function runCommand(command: AdminCommand, args: string[], options: Record<string, string>): Promise<unknown> {
  const config = loadConfigFromProcess();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.capabilities);
    return await runAdminCommand(command, { config, database, args, options }, (error) => {
      process.stderr.write(`admin: could not write the audit log entry: ${describeCliError(error)}\n`);
    });
  } finally {
    await database.destroy();
  }
}

async function main(): Promise<number> {
  const { args, options } = parseArgs(process.argv.slice(2));
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || options['help']) {
    // Help is words, not an answer: stderr, so a pipe never receives it as if it were JSON.
    process.stderr.write(usage());
    return name === undefined ? 1 : 0;
  }
  const command = adminCommands[name];
  if (!command) {
    process.stderr.write(`admin: unknown command "${name}"; "npm run -s admin -- help" lists them\n`);
    return 1;
  }
  warnAboutNpmBanner();
  const { json: _json, ...commandOptions } = options;
  const result = await runCommand(command, rest, commandOptions);
  const compact = options['json'] === 'true' || !process.stdout.isTTY;
  process.stdout.write(`${JSON.stringify(result, null, compact ? undefined : 2)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${describeCliError(error)}\n`);
    process.exit(1);
  },
);
