// What every command of the connector's command line shares: its flags, printing JSON, usage errors.
import { loadConnectorConfig, type ConnectorConfig } from '../core/config/load-config.js';

export const USAGE = `usage: connector <command> [--data DIR]
  enroll --relay URL --code CODE [--books URL] [--name MACHINE]
                         CODE: the customer token or setup code your software provider gave you
                         (or set LEDGERWIRE_ENROL_CODE and leave --code out); --token is the same
  configure [--relay URL] [--books URL]     before enrolment: remember the relay and where TallyPrime is
  pair --company-id N --books-company NAME|GUID
  run [--background] [--open]   --background: already running is fine (start at logon);
                                --open: open the local page (this one's, or the running one's)
  open                          start in the background if needed, then open the local page
  stop                          stop the connector running with this data folder
  status
  diagnostics                   what support needs to see, as text (no secrets)
  backup DIR`;

export class UsageError extends Error {}

export const OPTIONS = {
  data: { type: 'string' },
  relay: { type: 'string' },
  code: { type: 'string' },
  token: { type: 'string' },
  books: { type: 'string' },
  name: { type: 'string' },
  'company-id': { type: 'string' },
  'books-company': { type: 'string' },
  background: { type: 'boolean' },
  open: { type: 'boolean' },
  /** A failure is printed as its sentence alone (for the installer, which shows it to a person). */
  plain: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Flags = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function required(flags: Flags, name: keyof Flags): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required\n${USAGE}`);
  return value;
}

export function configFor(flags: Flags): ConnectorConfig {
  return loadConnectorConfig({ dataDir: flags.data, booksUrl: flags.books });
}
