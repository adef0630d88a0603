// The request log at info level is one line per request (not Fastify's two), masks a customer token in
// the path, and REQUEST_LOG turns it down to debug or off through the config loader.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { api, provisionTenant } from '../bridge/bridge-test-kit.js';

type LogLine = Record<string, unknown>;

/**
 * Log lines as pino writes them. The request line is written when the response has finished, which
 * may be just after inject() resolves: `requestLines(n)` waits for the n-th, woken by each write.
 */
function logSink() {
  const lines: LogLine[] = [];
  let wake: (() => void) | undefined;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine);
      wake?.();
      callback();
    },
  });
  const ofRequests = () => lines.filter((line) => line['msg'] === 'request');
  async function requestLines(count: number): Promise<LogLine[]> {
    while (ofRequests().length < count) await new Promise<void>((resolve) => (wake = resolve));
    return ofRequests();
  }
  return { stream, lines, requestLines };
}

describe('request log', () => {
  let relay: TestRelay | undefined;
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
  });

  async function start(env: Record<string, string>) {
    const sink = logSink();
    relay = await startRelay({ database: 'sqlite', env: { RELAY_WORKERS: '0', ...env }, logStream: sink.stream });
    return { relay, lines: sink.lines, requestLines: sink.requestLines };
  }

  it('writes one line per request at info: method, path, status, time; a token in the path is masked', async () => {
    const { relay, lines, requestLines: logged } = await start({ LOG_LEVEL: 'info' });
    const tenant = await provisionTenant(relay);
    await logged(4); // provisioning's four requests
    lines.length = 0;
    await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 200);
    await api(relay, tenant.credential, 'GET', '/api/v1/transactions?company_id=abc', 400);
    await api(relay, tenant.credential, 'POST', `/api/v1/customers/${tenant.customerToken}/rotate`, 200);
    const requestLines = await logged(3);
    // Nothing else per request: Fastify's "incoming request" / "request completed" pair is off.
    expect(lines.filter((line) => line['reqId'] !== undefined && line['msg'] !== 'request')).toEqual([]);
    expect(requestLines.map((line) => [line['level'], line['msg'], line['method'], line['url'], line['status']])).toEqual([
      [30, 'request', 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 200],
      [30, 'request', 'GET', '/api/v1/transactions?company_id=abc', 400],
      [30, 'request', 'POST', '/api/v1/customers/[redacted]/rotate', 200],
    ]);
    for (const line of requestLines) expect(line['ms']).toEqual(expect.any(Number));
    expect(JSON.stringify(lines)).not.toContain(tenant.customerToken);
  });

  it('REQUEST_LOG=debug keeps the lines out of an info log and shows them under LOG_LEVEL=debug', async () => {
    const quiet = await start({ LOG_LEVEL: 'info', REQUEST_LOG: 'debug' });
    await api(quiet.relay, 'x:y', 'GET', '/api/v1/ping', 401);
    expect(quiet.lines.filter((line) => line['msg'] === 'request')).toEqual([]);
    await quiet.relay.close();
    relay = undefined;

    const verbose = await start({ LOG_LEVEL: 'debug', REQUEST_LOG: 'debug' });
    await api(verbose.relay, 'x:y', 'GET', '/api/v1/ping', 401);
    expect((await verbose.requestLines(1)).map((line) => [line['level'], line['url'], line['status']])).toEqual([[20, '/api/v1/ping', 401]]);
  });

  it('REQUEST_LOG=off writes no request lines; anything else is refused when the config loads', async () => {
    const off = await start({ LOG_LEVEL: 'info', REQUEST_LOG: 'off' });
    await api(off.relay, 'x:y', 'GET', '/api/v1/ping', 401);
    expect(off.lines.filter((line) => line['msg'] === 'request' || line['msg'] === 'incoming request')).toEqual([]);
    expect(() => loadConfig({ REQUEST_LOG: 'verbose' })).toThrow(/REQUEST_LOG.*must be one of info, debug, off/s);
  });
});
