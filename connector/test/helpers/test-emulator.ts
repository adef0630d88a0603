// The books for connector tests: the emulator over real HTTP in a temp directory, with its control API.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@ledgerwire/emulator';
import { call } from '@ledgerwire/test-kit';

export type TestEmulator = Readonly<{
  emulator: RunningEmulator;
  xmlUrl: string;
  control<T = any>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T>;
  companies(): Promise<{ guid: string; name: string; isOpen: boolean; altMstId: number; altVchId: number; vouchers: number }[]>;
  vouchers(guid: string): Promise<{ guid: string; remoteId: string; masterId: number; alterId: number; voucherNumber: string; partyLedgerName: string; narration: string; date: string }[]>;
  close(): Promise<void>;
}>;

export async function startTestEmulator(options: { vouchers?: number } = {}): Promise<TestEmulator> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-emulator-'));
  const emulator = await startEmulator({ port: 0, controlPort: 0, dataDir, seed: 'demo', ...(options.vouchers ? { vouchers: options.vouchers } : {}) });
  // The kit's call over node:http, a connection per call (a kept one the server closed while a busy
  // machine delayed the client's own idle timer would fail the next POST with ECONNRESET).
  const control = async <T = any>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> =>
    (await call<T>(emulator.controlUrl, method, route, 200, body === undefined ? {} : { payload: body })).body;
  return {
    emulator,
    xmlUrl: emulator.xmlUrl,
    control,
    companies: () => control('GET', '/companies'),
    vouchers: (guid) => control('GET', `/companies/${encodeURIComponent(guid)}/vouchers`),
    async close() {
      await emulator.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function tempDataDir(prefix = 'lw-connector-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
