// The relay's one configuration loader: defaults, then the environment, validated once and frozen.
// Nothing else in the relay reads process.env; everything receives a RelayConfig.
import path from 'node:path';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const portSchema = z
  .string()
  .trim()
  .regex(/^\d+$/, 'must be an integer from 0 to 65535')
  .transform(Number)
  .refine((n) => n >= 0 && n <= 65535, 'must be an integer from 0 to 65535');

const databaseUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      const isPostgres = url.protocol === 'postgres:' || url.protocol === 'postgresql:';
      return isPostgres && (url.hostname !== '' || url.searchParams.has('host'));
    } catch {
      return false;
    }
  }, 'must be a PostgreSQL URL such as postgres://user@host:5432/database');

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const envSchema = z.object({
  PORT: portSchema.default(8080),
  HOST: z.string().trim().min(1, 'must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: databaseUrlSchema.optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case PostgreSQL identifier')
    .optional(),
  RELAY_ADMIN_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  LOG_LEVEL: z.enum(logLevels, { message: `must be one of ${logLevels.join(', ')}` }).default('info'),
  PUBLIC_URL: z.url({ message: 'must be an absolute URL' }).optional(),
  SHUTDOWN_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, 'must be a number of milliseconds')
    .transform(Number)
    .default(5000),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanFlag.default(false),
  RELAY_WORKERS: booleanFlag.default(true),
});

export type RelayConfig = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  database: Readonly<
    { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string | undefined }
  >;
  adminToken: string | undefined;
  logLevel: (typeof logLevels)[number];
  publicUrl: string;
  shutdownTimeoutMs: number;
  webhookAllowPrivateUrls: boolean;
  /** Background loops (dispatch, webhook delivery, leases) start with the app; tests may turn them off and call runOnce(). */
  workersEnabled: boolean;
}>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment and returns a frozen config; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): RelayConfig {
  // Empty strings mean "unset", as in most twelve-factor loaders.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const got = present[variable];
    const shown = variable === 'RELAY_ADMIN_TOKEN' || variable === 'DATABASE_URL' ? '' : ` (got "${got}")`;
    throw new ConfigError(variable, `${issue?.message ?? 'is invalid'}${got === undefined ? '' : shown}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const hostForUrl = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: Object.freeze(
      e.DATABASE_URL
        ? { kind: 'postgres' as const, url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
        : { kind: 'sqlite' as const, file: path.join(dataDir, 'relay.sqlite') },
    ),
    adminToken: e.RELAY_ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    publicUrl: (e.PUBLIC_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/$/, ''),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS,
    workersEnabled: e.RELAY_WORKERS,
  });
}

/** The process's own environment, for entry points (server, CLI). */
export function loadConfigFromProcess(): RelayConfig {
  return loadConfig(process.env);
}
