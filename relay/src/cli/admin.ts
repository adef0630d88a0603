// `npm run admin -- <command> [args] [--option value]`: the operator API's services from a shell.
// Prints JSON on stdout; errors go to stderr with exit code 1.
import process from 'node:process';
import { ConfigError, loadConfigFromProcess } from '../config/load-config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { adminCommands } from './admin-commands.js';

function parseArgs(argv: readonly string[]) {
  const args: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (inline !== undefined) options[name] = inline;
      else if (argv[i + 1] !== undefined && !argv[i + 1]?.startsWith('--')) options[name] = argv[++i] ?? '';
      else options[name] = 'true';
    } else args.push(arg);
  }
  return { args, options };
}

function usage(): string {
  const lines = Object.values(adminCommands).map((c) => `  ${c.usage.padEnd(48)} ${c.describe}`);
  return `Usage: npm run admin -- <command>\n\nCommands:\n${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  const { args, options } = parseArgs(process.argv.slice(2));
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || options['help']) {
    process.stdout.write(usage());
    return name === undefined ? 1 : 0;
  }
  const command = adminCommands[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n${usage()}`);
    return 1;
  }
  const config = loadConfigFromProcess();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.capabilities);
    const result = await command.run({ config, database, args: rest, options });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await database.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
