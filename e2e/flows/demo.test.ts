// `npm run demo` as a newcomer runs it, on a machine where `npm start` already holds port 8080 and
// something else holds the books' usual ports: the demo starts beside them on free ports, prints
// every address, the printed curl books an invoice in the demo's own emulator, and Ctrl-C stops
// everything it started (and nothing else).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { portIsFree } from '../demo/demo-ports.js';
import { repositoryRoot, startProgram, stopAll, exitedWhile, waitForStdout, type ManagedProcess } from '../demo/demo-processes.js';

const run = promisify(execFile);

/** What already runs on the machine: a relay as `npm start` runs it on 8080, plain listeners on 9000 and 9001. */
async function occupyUsualPorts(dataDir: string): Promise<{ relay?: ManagedProcess; listeners: net.Server[] }> {
  const listeners: net.Server[] = [];
  for (const port of [9000, 9001]) {
    if (!(await portIsFree(port))) continue; // already held by something else: just as good
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(port, '0.0.0.0', resolve));
    listeners.push(server);
  }
  if (!(await portIsFree(8080))) return { listeners };
  const relay = startProgram('relay on 8080', 'relay', [], { PORT: '8080', HOST: '0.0.0.0', DATA_DIR: path.join(dataDir, 'npm-start'), LOG_LEVEL: 'warn' });
  await waitForStdout(relay, /^Ledgerwire relay listening on /m, 60_000);
  return { relay, listeners };
}

function lineAfter(output: string, label: string): string {
  const match = new RegExp(`^\\s*${label}\\s+(\\S+)$`, 'm').exec(output);
  if (!match?.[1]) throw new Error(`the demo printed no "${label}" line:\n${output}`);
  return match[1];
}

describe('npm run demo', { timeout: 240_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-demo-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts beside a relay already on 8080, books the printed curl’s invoice in its own emulator, and stops all three on Ctrl-C', async () => {
    const occupied = await occupyUsualPorts(dataDir);
    let demo: ChildProcess | undefined;
    try {
      demo = spawn('npm', ['run', '--silent', 'demo', '--', '--data', path.join(dataDir, 'demo')], {
        cwd: repositoryRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let output = '';
      demo.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      demo.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        demo?.on('exit', (code, signal) => resolve({ code, signal })),
      );
      const started = demo;
      const curl = await eventually('the demo to print its curl', async () => /^curl -sS -X POST .+$/m.exec(output)?.[0], { timeoutMs: 180_000, giveUp: exitedWhile({ name: 'demo', child: started, output: () => output, stdout: () => output }, 'the demo to print its curl') });

      // Every address a person needs, none of them the ports already taken.
      const consoleUrl = new URL(lineAfter(output, 'Console \\(signed in\\):'));
      const relayUrl = consoleUrl.origin;
      expect(consoleUrl.port).not.toBe('8080');
      expect(consoleUrl.hash).toMatch(/^#token=lwop_demo_/);
      expect(output).toMatch(/port 8080 is in use/);
      const controlUrl = new URL(lineAfter(output, 'Books \\(emulator control API\\):')).origin;
      expect(new URL(controlUrl).port).not.toBe('9001');
      expect(lineAfter(output, 'API docs:')).toBe(`${relayUrl}/docs`);
      const connectorPage = lineAfter(output, 'Connector local page:');
      expect((await fetch(connectorPage)).status).toBe(200);
      expect((await fetch(`${relayUrl}/docs/json`)).status).toBe(200);
      // The console link signs in: its token opens this relay's operator API.
      const token = consoleUrl.hash.slice('#token='.length);
      expect((await fetch(`${relayUrl}/admin/v1/whoami`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect(curl).toContain(`'${relayUrl}/api/v1/invoices?company_id=`);

      const accepted = JSON.parse((await run('bash', ['-c', curl])).stdout) as { success: boolean; transaction_id: string; company_id: number };
      expect(accepted.success).toBe(true);
      const credential = /Bearer ([^']+)'/.exec(curl)?.[1] ?? '';
      const transaction = await eventually(
        'the invoice to complete',
        async () => {
          const response = await fetch(`${relayUrl}/api/v1/transactions/${accepted.transaction_id}?company_id=${accepted.company_id}`, {
            headers: { authorization: `Bearer ${credential}` },
          });
          const body = (await response.json()) as { transaction: { status: string; books_voucher_guid: string | null; error_message: string | null } };
          if (body.transaction.status === 'failed') throw new Error(`invoice failed: ${body.transaction.error_message}`);
          return body.transaction.status === 'completed' ? body.transaction : undefined;
        },
        { timeoutMs: 60_000 },
      );
      expect(transaction.books_voucher_guid).toMatch(/^[0-9a-f-]+-[0-9a-f]{8}$/);

      const companies = (await (await fetch(`${controlUrl}/companies`)).json()) as Array<{ guid: string; name: string }>;
      const demoCompany = companies.find((c) => c.name === 'Ledgerwire Demo Traders');
      expect(demoCompany).toBeDefined();
      const vouchers = (await (await fetch(`${controlUrl}/companies/${demoCompany?.guid}/vouchers`)).json()) as unknown[];
      // Booked exactly once, under the GUID the transaction reports.
      const occurrences = JSON.stringify(vouchers).split(`"${transaction.books_voucher_guid}"`).length - 1;
      expect(occurrences).toBe(1);

      // Ctrl-C reaches the whole process group: the demo exits 0; npm, its parent, may end by the signal itself.
      process.kill(-(demo.pid ?? 0), 'SIGINT');
      const { code, signal } = await exited;
      expect(code === 0 || signal === 'SIGINT').toBe(true);
      expect(output).toContain('Stopping the demo');
      // Nothing the demo started is left listening; what ran before it still does.
      await expect(fetch(`${relayUrl}/api/health`)).rejects.toThrow();
      await expect(fetch(`${controlUrl}/companies`)).rejects.toThrow();
      if (occupied.relay) expect((await fetch('http://127.0.0.1:8080/api/health')).status).toBe(200);
    } finally {
      if (demo?.exitCode === null && demo.signalCode === null) process.kill(-(demo.pid ?? 0), 'SIGKILL');
      await stopAll(occupied.relay ? [occupied.relay] : []);
      await Promise.all(occupied.listeners.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});
