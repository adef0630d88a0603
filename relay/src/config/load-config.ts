// The relay's one configuration loader: defaults, then the environment, validated once and frozen.
// Nothing else in the relay reads process.env; everything receives a RelayConfig.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { decodeEncryptionKey } from '../security/encryption-key.js';

/** REQUEST_LOG's values: the level of the one line per request (http/request-log.ts), or off. */
export const REQUEST_LOG_LEVELS = ['info', 'debug', 'off'] as const;
export type RequestLogLevel = (typeof REQUEST_LOG_LEVELS)[number];

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

/**
 * TRUST_PROXY: which peers may tell the relay the client's address (X-Forwarded-For), so per-address limits
 * count clients rather than the proxy: a number of proxy hops, or proxies' addresses and CIDR ranges
 * ("loopback" and the other names Fastify's proxy-addr knows). Never "trust everyone": any client could
 * then claim a new address per guess.
 */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const trustProxySchema = z
  .string()
  .trim()
  .refine(
    (value) => /^\d{1,2}$/.test(value) || value.split(',').every((part) => {
      const entry = part.trim();
      const [address = '', bits, ...more] = entry.split('/');
      return PROXY_NAMES.includes(entry) || (net.isIP(address) !== 0 && more.length === 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
    }),
    'must be a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges (or loopback)',
  )
  .transform((value): number | string => (/^\d{1,2}$/.test(value) ? Number(value) : value.split(',').map((part) => part.trim()).join(',')));

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
  // Encrypts webhook signing secrets at rest (relay/src/security/encryption-key.ts); without it a key
  // file is generated in DATA_DIR. Several relays on one PostgreSQL must all set the same value.
  RELAY_ENCRYPTION_KEY: z
    .string()
    .trim()
    .refine((v) => decodeEncryptionKey(v) !== undefined, 'must be 32 random bytes in base64 (e.g. from `openssl rand -base64 32`)')
    .optional(),
  LOG_LEVEL: z.enum(logLevels, { message: `must be one of ${logLevels.join(', ')}` }).default('info'),
  // The one line per request (http/request-log.ts): at info, at debug (hidden unless LOG_LEVEL=debug), or off.
  REQUEST_LOG: z.enum(REQUEST_LOG_LEVELS, { message: `must be one of ${REQUEST_LOG_LEVELS.join(', ')}` }).default('info'),
  PUBLIC_URL: z.url({ message: 'must be an absolute URL' }).optional(),
  TRUST_PROXY: trustProxySchema.optional(),
  SHUTDOWN_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, 'must be a number of milliseconds')
    .transform(Number)
    .default(5000),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanFlag.default(false),
  RELAY_WORKERS: booleanFlag.default(true),
  // Messaging providers (relay/src/messaging/providers): the default order, then each adapter's settings.
  MESSAGING_PROVIDERS: z
    .string()
    .regex(/^(outbox|smtp|sendgrid)(,(outbox|smtp|sendgrid))*$/, 'must be a comma-separated list of outbox, smtp, sendgrid')
    .default('outbox'),
  MAIL_FROM: z.string().trim().min(3).max(320).default('Ledgerwire <no-reply@ledgerwire.localhost>'),
  SMTP_HOST: z.string().trim().min(1).optional(),
  SMTP_PORT: portSchema.default(587),
  SMTP_SECURE: booleanFlag.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASS: z.string().optional(),
  // A server with a private or self-signed certificate: its CA (PEM file), whether STARTTLS is
  // required, tried when offered, or never used, and the name its certificate carries when it is
  // not SMTP_HOST (e.g. a host reached by IP address).
  SMTP_CA_FILE: z.string().trim().min(1).optional(),
  SMTP_STARTTLS: z.enum(['require', 'opportunistic', 'off'], { message: 'must be require, opportunistic or off' }).default('opportunistic'),
  SMTP_TLS_SERVERNAME: z.string().trim().min(1).optional(),
  SENDGRID_API_KEY: z.string().trim().min(1).optional(),
  SENDGRID_BASE_URL: z.url({ message: 'must be an absolute URL' }).default('https://api.sendgrid.com'),
  SENDGRID_WEBHOOK_PUBLIC_KEY: z.string().trim().min(1).optional(),
  SENDGRID_WEBHOOK_MAX_AGE_SECONDS: z.string().regex(/^\d+$/, 'must be a number of seconds').transform(Number).default(600),
  // Memory for attachment bytes, once for sends being accepted and once for messages being dispatched.
  MESSAGING_ATTACHMENT_MEMORY_MB: z
    .string()
    .regex(/^[1-9]\d{0,4}$/, 'must be a whole number of megabytes (1–99999)')
    .transform(Number)
    .default(64),
  MESSAGING_DISPATCH_INTERVAL_MS: z.string().regex(/^\d+$/, 'must be a number of milliseconds').transform(Number).default(1000),
  MESSAGING_MAX_ATTEMPTS: z.string().regex(/^[1-9]\d*$/, 'must be a positive integer').transform(Number).default(8),
  MESSAGING_DISPATCH_CLAIMS_PER_PASS: z.string().regex(/^[1-9]\d*$/, 'must be a positive integer').transform(Number).default(4),
  MESSAGING_PROVIDER_TIMEOUT_MS: z.string().regex(/^\d+$/, 'must be a number of milliseconds').transform(Number).default(10_000),
  // Connector gateway (relay/src/gateway): job lease, presence grace, heartbeat, in-flight jobs per session.
  CONNECTOR_LEASE_MS: z.string().regex(/^[1-9]\d*$/, 'must be a positive number of milliseconds').transform(Number).default(600_000),
  CONNECTOR_OFFLINE_GRACE_MS: z.string().regex(/^\d+$/, 'must be a number of milliseconds').transform(Number).default(60_000),
  CONNECTOR_HEARTBEAT_MS: z.string().regex(/^[1-9]\d*$/, 'must be a positive number of milliseconds').transform(Number).default(25_000),
  // Three times the connector's default import batch (200): one run importing, the next ready behind it,
  // and a third on its way while the relay records the last run's outcomes. With two, the connector ran
  // dry for 4–20 ms before about one import in twelve (the relay's round trip outlasted an import).
  CONNECTOR_MAX_IN_FLIGHT: z.string().regex(/^[1-9]\d*$/, 'must be a positive integer').transform(Number).default(600),
  CONNECTOR_CLAIM_INTERVAL_MS: z.string().regex(/^[1-9]\d*$/, 'must be a positive number of milliseconds').transform(Number).default(5000),
  // Accounting bridge API (relay/src/bridge): requests per key per minute (all relay processes together), job attempts.
  BRIDGE_RATE_LIMIT_PER_MINUTE: z.string().regex(/^[1-9]\d*$/, 'must be a positive integer').transform(Number).default(600),
  BRIDGE_MAX_RETRIES: z.string().regex(/^\d{1,3}$/, 'must be an integer from 0 to 999').transform(Number).default(5),
  BRIDGE_LEASE_REAPER_INTERVAL_MS: z.string().regex(/^[1-9]\d*$/, 'must be a positive number of milliseconds').transform(Number).default(15_000),
  // Connect sessions (relay/src/bridge/connect-sessions): the connector installer the hosted page offers
  // (the .exe `npm run package:windows` builds), and setup codes tried per client address per hour.
  CONNECTOR_INSTALLER_FILE: z.string().trim().min(1, 'must not be empty').optional(),
  CONNECT_SETUP_CODE_ATTEMPTS_PER_HOUR: z.string().regex(/^[1-9]\d*$/, 'must be a positive integer').transform(Number).default(20),
});

export type RelayConfig = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  /** Where the command was typed (INIT_CWD under npm): relative paths given to the CLI start there. */
  invocationDir: string;
  database: Readonly<
    { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string | undefined }
  >;
  adminToken: string | undefined;
  /** RELAY_ENCRYPTION_KEY as given (validated: 32 bytes in base64); undefined → a key file in DATA_DIR. */
  encryptionKey: string | undefined;
  logLevel: (typeof logLevels)[number];
  /** Level of the one line logged per request, or off. */
  requestLog: RequestLogLevel;
  publicUrl: string;
  /** Peers whose X-Forwarded-For names the client (hops or addresses); undefined → the socket's address. */
  trustProxy: number | string | undefined;
  shutdownTimeoutMs: number;
  webhookAllowPrivateUrls: boolean;
  /** Background loops (dispatch, webhook delivery, leases) start with the app; tests may turn them off and call runOnce(). */
  workersEnabled: boolean;
  messaging: MessagingConfig;
  connectors: ConnectorGatewayConfig;
  bridge: BridgeConfig;
}>;

export type BridgeConfig = Readonly<{
  /** Requests per API key per minute, counted in the database so every relay process shares it. */
  rateLimitPerMinute: number;
  /** Times a job interrupted by a dropped connector is queued again before it fails CONNECTOR_OFFLINE. */
  maxRetries: number;
  /** How often expired job leases are reaped. */
  leaseReaperIntervalMs: number;
  /** The connector installer served by connect pages (absolute path, checked readable at start), if deployed with one. */
  connectorInstallerFile: string | undefined;
  /** Setup codes one client address may try per hour (connector enrolment), all relay processes together. */
  setupCodeAttemptsPerHour: number;
}>;

export type ConnectorGatewayConfig = Readonly<{
  /** How long a job handed to a connector stays leased before it is delivered again. */
  leaseMs: number;
  /** A connector whose socket closed is published offline only after this long (flaps are debounced). */
  offlineGraceMs: number;
  /** The relay pings each connector at this interval; two silent intervals end the session. */
  heartbeatMs: number;
  /** Jobs in flight per connector session. */
  maxInFlight: number;
  /** The safety-net claim pass (jobs whose wake-up was missed, pairings made on another process). */
  claimIntervalMs: number;
}>;

export type MessagingProviderName = 'outbox' | 'smtp' | 'sendgrid';

export type SmtpSettings = {
  host: string;
  port: number;
  secure: boolean;
  user: string | undefined;
  pass: string | undefined;
  /** PEM file of the CA that signed the server's certificate (read when the provider starts). */
  caFile: string | undefined;
  starttls: 'require' | 'opportunistic' | 'off';
  tlsServername: string | undefined;
};

export type MessagingConfig = Readonly<{
  /** Provider order for tenants without their own. */
  defaultProviders: readonly MessagingProviderName[];
  mailFrom: string;
  /** Where the outbox provider writes .eml files (DATA_DIR/outbox). */
  outboxDir: string;
  smtp: Readonly<SmtpSettings> | undefined;
  sendgrid: Readonly<{ apiKey: string | undefined; baseUrl: string; webhookPublicKey: string | undefined; webhookMaxAgeSeconds: number }>;
  dispatchIntervalMs: number;
  /** Claims of 200 messages per dispatch pass, each made while the previous one is with the providers. */
  dispatchClaimsPerPass: number;
  maxAttempts: number;
  providerTimeoutMs: number;
  /** Bytes of attachments held at once by accepting, and again by dispatching (MESSAGING_ATTACHMENT_MEMORY_MB). */
  attachmentMemoryBytes: number;
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

/**
 * The directory a relative path in the environment (DATA_DIR=./data) is taken from: the one the
 * command was typed in. `npm start` runs the relay's script inside relay/, but npm names the
 * caller's directory in INIT_CWD; outside npm the process's own directory is that place.
 */
function invocationDir(env: Readonly<Record<string, string | undefined>>): string {
  const initCwd = env['INIT_CWD'];
  return initCwd !== undefined && path.isAbsolute(initCwd) ? initCwd : process.cwd();
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
    const secretVariables = ['RELAY_ADMIN_TOKEN', 'RELAY_ENCRYPTION_KEY', 'DATABASE_URL', 'SMTP_PASS', 'SENDGRID_API_KEY'];
    const shown = secretVariables.includes(variable) ? '' : ` (got "${got}")`;
    throw new ConfigError(variable, `${issue?.message ?? 'is invalid'}${got === undefined ? '' : shown}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(invocationDir(env), e.DATA_DIR);
  const smtpCaFile = e.SMTP_CA_FILE === undefined ? undefined : path.resolve(invocationDir(env), e.SMTP_CA_FILE);
  if (smtpCaFile !== undefined && !isReadableFile(smtpCaFile)) throw new ConfigError('SMTP_CA_FILE', `names no readable file (got "${e.SMTP_CA_FILE}")`);
  const installerFile = e.CONNECTOR_INSTALLER_FILE === undefined ? undefined : path.resolve(invocationDir(env), e.CONNECTOR_INSTALLER_FILE);
  if (installerFile !== undefined && !isReadableFile(installerFile)) {
    throw new ConfigError('CONNECTOR_INSTALLER_FILE', `names no readable file (got "${e.CONNECTOR_INSTALLER_FILE}"): build it with npm run package:windows`);
  }
  const hostForUrl = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir,
    invocationDir: invocationDir(env),
    database: Object.freeze(
      e.DATABASE_URL
        ? { kind: 'postgres' as const, url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
        : { kind: 'sqlite' as const, file: path.join(dataDir, 'relay.sqlite') },
    ),
    adminToken: e.RELAY_ADMIN_TOKEN,
    encryptionKey: e.RELAY_ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL,
    requestLog: e.REQUEST_LOG,
    publicUrl: (e.PUBLIC_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/$/, ''),
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS,
    workersEnabled: e.RELAY_WORKERS,
    messaging: Object.freeze({
      defaultProviders: Object.freeze(e.MESSAGING_PROVIDERS.split(',') as MessagingProviderName[]),
      mailFrom: e.MAIL_FROM,
      outboxDir: path.join(dataDir, 'outbox'),
      smtp: e.SMTP_HOST
        ? Object.freeze({
            host: e.SMTP_HOST,
            port: e.SMTP_PORT,
            secure: e.SMTP_SECURE,
            user: e.SMTP_USER,
            pass: e.SMTP_PASS,
            caFile: smtpCaFile,
            starttls: e.SMTP_STARTTLS,
            tlsServername: e.SMTP_TLS_SERVERNAME,
          })
        : undefined,
      sendgrid: Object.freeze({
        apiKey: e.SENDGRID_API_KEY,
        baseUrl: e.SENDGRID_BASE_URL.replace(/\/$/, ''),
        webhookPublicKey: e.SENDGRID_WEBHOOK_PUBLIC_KEY,
        webhookMaxAgeSeconds: e.SENDGRID_WEBHOOK_MAX_AGE_SECONDS,
      }),
      dispatchIntervalMs: e.MESSAGING_DISPATCH_INTERVAL_MS,
      dispatchClaimsPerPass: e.MESSAGING_DISPATCH_CLAIMS_PER_PASS,
      maxAttempts: e.MESSAGING_MAX_ATTEMPTS,
      providerTimeoutMs: e.MESSAGING_PROVIDER_TIMEOUT_MS,
      attachmentMemoryBytes: e.MESSAGING_ATTACHMENT_MEMORY_MB * 1024 * 1024,
    }),
    connectors: Object.freeze({
      leaseMs: e.CONNECTOR_LEASE_MS,
      offlineGraceMs: e.CONNECTOR_OFFLINE_GRACE_MS,
      heartbeatMs: e.CONNECTOR_HEARTBEAT_MS,
      maxInFlight: e.CONNECTOR_MAX_IN_FLIGHT,
      claimIntervalMs: e.CONNECTOR_CLAIM_INTERVAL_MS,
    }),
    bridge: Object.freeze({
      rateLimitPerMinute: e.BRIDGE_RATE_LIMIT_PER_MINUTE,
      maxRetries: e.BRIDGE_MAX_RETRIES,
      leaseReaperIntervalMs: e.BRIDGE_LEASE_REAPER_INTERVAL_MS,
      connectorInstallerFile: installerFile,
      setupCodeAttemptsPerHour: e.CONNECT_SETUP_CODE_ATTEMPTS_PER_HOUR,
    }),
  });
}

/** The process's own environment, for entry points (server, CLI). */
export function loadConfigFromProcess(): RelayConfig {
  return loadConfig(process.env);
}

/**
 * How the admin CLI was started, as npm tells its scripts: through `npm run admin` and whether npm
 * printed its command banner on stdout (it does unless run with -s, which it passes on as
 * npm_config_loglevel=silent, or with --json, which sends the banner to stderr).
 */
export function npmScriptInvocation(env: Readonly<Record<string, string | undefined>>, script: string): { viaNpm: boolean; bannerOnStdout: boolean } {
  const viaNpm = env['npm_lifecycle_event'] === script;
  return { viaNpm, bannerOnStdout: viaNpm && env['npm_config_loglevel'] !== 'silent' && env['npm_config_json'] !== 'true' };
}

export function npmScriptInvocationFromProcess(script: string): { viaNpm: boolean; bannerOnStdout: boolean } {
  return npmScriptInvocation(process.env, script);
}

function isReadableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
