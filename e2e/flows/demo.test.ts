// `npm run demo` as a newcomer runs it: three programs start, the printed curl books an invoice
// in the emulator, and Ctrl-C stops everything.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot, waitFor } from '../demo/demo-processes.js';

const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run demo', { timeout: 240_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-demo-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('books the printed curl’s invoice in the emulator and stops all three on Ctrl-C', async () => {
    const [relayPort, booksPort, controlPort] = [await freePort(), await freePort(), await freePort()];
    const demo = spawn(
      'npm',
      ['run', '--silent', 'demo', '--', '--relay-port', String(relayPort), '--books-port', String(booksPort), '--control-port', String(controlPort), '--data', dataDir],
      { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    let output = '';
    demo.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      demo.on('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      const curl = await waitFor('the demo to print its curl', async () => /^curl .+$/m.exec(output)?.[0], {
        timeoutMs: 180_000,
        process: { name: 'demo', child: demo, output: () => output },
      });
      expect(output).toContain(`/console#token=lwop_demo_`);
      expect(curl).toMatch(/-H 'Authorization: Bearer [^']+:[^']+'/);

      const accepted = JSON.parse((await run('bash', ['-c', curl])).stdout) as { success: boolean; transaction_id: string; company_id: number };
      expect(accepted.success).toBe(true);
      const credential = /Bearer ([^']+)'/.exec(curl)?.[1] ?? '';
      const transaction = await waitFor(
        'the invoice to complete',
        async () => {
          const response = await fetch(`http://127.0.0.1:${relayPort}/api/v1/transactions/${accepted.transaction_id}?company_id=${accepted.company_id}`, {
            headers: { authorization: `Bearer ${credential}` },
          });
          const body = (await response.json()) as { transaction: { status: string; books_voucher_guid: string | null; error_message: string | null } };
          if (body.transaction.status === 'failed') throw new Error(`invoice failed: ${body.transaction.error_message}`);
          return body.transaction.status === 'completed' ? body.transaction : undefined;
        },
        { timeoutMs: 60_000 },
      );
      expect(transaction.books_voucher_guid).toMatch(/^[0-9a-f-]+-[0-9a-f]{8}$/);

      const companies = (await (await fetch(`http://127.0.0.1:${controlPort}/companies`)).json()) as Array<{ guid: string; name: string }>;
      const demoCompany = companies.find((c) => c.name === 'Ledgerwire Demo Traders');
      expect(demoCompany).toBeDefined();
      const vouchers = (await (await fetch(`http://127.0.0.1:${controlPort}/companies/${demoCompany?.guid}/vouchers`)).json()) as unknown[];
      // Booked exactly once, under the GUID the transaction reports.
      const occurrences = JSON.stringify(vouchers).split(`"${transaction.books_voucher_guid}"`).length - 1;
      expect(occurrences).toBe(1);
    } finally {
      if (demo.exitCode === null) process.kill(-(demo.pid ?? 0), 'SIGINT');
    }
    // Ctrl-C reaches the whole process group: the demo exits 0; npm, its parent, may end by the signal itself.
    const { code, signal } = await exited;
    expect(code === 0 || signal === 'SIGINT').toBe(true);
    expect(output).toContain('Stopping the demo');
    // Nothing is left listening.
    await expect(fetch(`http://127.0.0.1:${relayPort}/api/health`)).rejects.toThrow();
    await expect(fetch(`http://127.0.0.1:${booksPort}/`)).rejects.toThrow();
  });
});
