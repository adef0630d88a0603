// nginx as a child process in front of the relays, with the repository's deployment config
// (deploy/nginx/ledgerwire.conf) rendered for the relays of a run. A top-level config of the run's own
// wraps it (pid, logs and temporary files under a temporary prefix, no daemon, no user switch), so
// nothing of the machine's nginx (/etc/nginx, port 80, /run/nginx.pid) is read or touched.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@ledgerwire/test-kit';
import { systemFreePort } from '../demo/demo-ports.js';
import { repositoryRoot } from '../demo/demo-processes.js';

export const NGINX_BINARY = '/usr/sbin/nginx';
export const DEPLOYMENT_CONFIG = path.join(repositoryRoot, 'deploy/nginx/ledgerwire.conf');

export function nginxAvailable(): boolean {
  return fs.existsSync(NGINX_BINARY);
}

/** Renders the deployment template: `{{listen}}` once, the `{{relay}}` line once per relay. */
export function renderDeploymentConfig(template: string, listen: string, relays: readonly string[]): string {
  if (relays.length === 0) throw new Error('at least one relay address is needed');
  const lines = template.split('\n').flatMap((line) => (line.includes('{{relay}}') ? relays.map((relay) => line.replace('{{relay}}', relay)) : [line]));
  const rendered = lines.join('\n').replaceAll('{{listen}}', listen);
  if (rendered.includes('{{')) throw new Error(`unrendered placeholder left in ${DEPLOYMENT_CONFIG}`);
  return rendered;
}

function mainConfig(prefix: string, included: string): string {
  const temp = (name: string) => path.join(prefix, 'temp', name);
  return [
    'worker_processes 1;',
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    // Tab-separated: when the request ended (s), how long it took (s), status, relays tried, URI. A
    // WebSocket's line is written when it closes, so each connector session is one line.
    "  log_format ledgerwire_balancer '$msec\\t$request_time\\t$status\\t$upstream_addr\\t$uri';",
    `  access_log ${path.join(prefix, 'access.log')} ledgerwire_balancer;`,
    `  client_body_temp_path ${temp('body')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    `  include ${included};`,
    '}',
    '',
  ].join('\n');
}

export type BalancedRequest = Readonly<{ startedAt: number; endedAt: number; status: number; relay: string; uri: string }>;

export class NginxBalancer {
  private readonly prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-nginx-'));
  private child: ChildProcess | undefined;
  private output = '';
  port = 0;

  constructor(private readonly relayAddresses: readonly string[]) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Renders the config, checks it with `nginx -t`, starts nginx and waits until it answers. */
  async start(): Promise<void> {
    this.port = await systemFreePort();
    fs.mkdirSync(path.join(this.prefix, 'temp'));
    const site = path.join(this.prefix, 'ledgerwire.conf');
    fs.writeFileSync(site, renderDeploymentConfig(fs.readFileSync(DEPLOYMENT_CONFIG, 'utf8'), `127.0.0.1:${this.port}`, this.relayAddresses));
    const conf = path.join(this.prefix, 'nginx.conf');
    fs.writeFileSync(conf, mainConfig(this.prefix, site));
    const args = ['-c', conf, '-p', `${this.prefix}/`, '-g', 'daemon off;'];
    execFileSync(NGINX_BINARY, ['-t', '-q', ...args], { stdio: 'pipe' });
    this.child = spawn(NGINX_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-10_000));
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    // nginx writes its pid file once it listens: that file, for this very process, is the readiness signal.
    const pidFile = path.join(this.prefix, 'nginx.pid');
    const child = this.child;
    try {
      await eventually('nginx to write its pid file', () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() === String(child.pid), {
        timeoutMs: 15_000,
        intervalMs: 20,
        giveUp: () => (child.exitCode === null ? undefined : new Error(`nginx exited (${child.exitCode}):\n${this.output}${this.errorLog()}`)),
      });
    } catch (error) {
      if (child.exitCode !== null) throw error;
      throw new Error(`nginx did not start:\n${this.output}${this.errorLog()}`);
    }
  }

  /** Every request that ended, as nginx logged it (a WebSocket ends when its connection closes). */
  accessLog(): BalancedRequest[] {
    let text = '';
    try {
      text = fs.readFileSync(path.join(this.prefix, 'access.log'), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [ended = '0', took = '0', status = '0', upstreams = '', uri = ''] = line.split('\t');
        const endedAt = Math.round(Number(ended) * 1000);
        return { startedAt: endedAt - Math.round(Number(took) * 1000), endedAt, status: Number(status), relay: upstreams.split(',').at(-1)?.trim() ?? '', uri };
      });
  }

  errorLog(): string {
    try {
      return fs.readFileSync(path.join(this.prefix, 'error.log'), 'utf8').slice(-10_000);
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      // SIGQUIT is nginx's graceful stop; SIGTERM its fast one (open WebSockets are cut at once).
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    fs.rmSync(this.prefix, { recursive: true, force: true });
  }
}
