// `npm run connector -- <command>`, and the Windows program's command line: the connector from a
// terminal, the Start menu, logon and the installer. Every command takes --data DIR (default: this
// user's application-data folder) and prints JSON on stdout (diagnostics: text); log lines go to stderr.
// The commands are in ./cli/; `connector help` lists them.
import { parseArgs } from 'node:util';
import { OPTIONS, print, USAGE, UsageError, type Flags } from './cli/cli-support.js';
import { open, run, stop } from './cli/run-commands.js';
import { configure, enroll, pair } from './cli/setup-commands.js';
import { backup, diagnostics, status } from './cli/support-commands.js';

const COMMANDS: Readonly<Record<string, (flags: Flags, positionals: readonly string[]) => Promise<void>>> = {
  enroll,
  configure,
  pair,
  run,
  open,
  stop,
  status,
  diagnostics,
  backup,
};

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({ args: [...rest], options: OPTIONS, strict: true, allowPositionals: true });
  const flags = values as Flags;
  if (positionals.length > 0 && command !== 'backup') throw new UsageError(`unexpected argument "${positionals[0]}"\n${USAGE}`);
  if (!command || command === 'help' || flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const action = COMMANDS[command];
  if (!action) throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  await action(flags, positionals);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const sentence = message.split('\n')[0] ?? '';
    if (process.argv.includes('--plain')) process.stdout.write(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}\n`);
    else print({ success: false, error: sentence });
    process.stderr.write(`${message}\n`);
    process.exitCode = error instanceof UsageError || (error instanceof TypeError && 'code' in error) ? 2 : 1;
  },
);
