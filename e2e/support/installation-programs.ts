// What the process-level suites (the fault matrix, the load-balancer test) share: a program of this
// repository started as one process, a JSON call to the relay or the books' control API, and the
// journal they post. Each program is node running the compiled program (`npm run build`, done by the
// test run's global setup when stale) in the same process — no wrapper whose child would outlive a
// SIGKILL or ignore a SIGSTOP sent to the wrapper.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { programArguments, repositoryRoot, type ManagedProcess, type ProgramName } from '../demo/demo-processes.js';

const FAKETIME_LIBRARY = `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/faketime/libfaketime.so.1`;

/** Whether libfaketime is installed (Debian package faketime). */
export function faketimeAvailable(): boolean {
  return fs.existsSync(FAKETIME_LIBRARY);
}

export type ProgramOptions = Readonly<{
  /**
   * The program's wall clock offset, as libfaketime writes it (`+3h`): the library is preloaded into the
   * process itself (the `faketime` program would fork, and a signal sent to it would miss node). Only
   * the wall clock moves; timers keep the monotonic one.
   */
  clock?: string;
  /** How much of the program's output is kept (its end). */
  keepChars?: number;
}>;

export function startProgram(name: string, program: ProgramName, args: readonly string[], env: Record<string, string> = {}, options: ProgramOptions = {}): ManagedProcess {
  const keep = options.keepChars ?? 20_000;
  const skew = options.clock === undefined ? {} : { LD_PRELOAD: FAKETIME_LIBRARY, FAKETIME: options.clock, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
  const child = spawn(process.execPath, programArguments(program, args), {
    cwd: repositoryRoot,
    env: { ...process.env, ...env, ...skew },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-keep);
    output = (output + chunk.toString()).slice(-keep);
  });
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-keep)));
  return { name, child, output: () => output, stdout: () => stdout };
}

/** A JSON call; throws with the answer on any status other than 2xx. */
export async function requestJson<T>(url: string, method: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} → ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** A journal the emulator's demo books accept, found again in the books by its narration. */
export function journalDocument(tag: string, narration: string) {
  return {
    transaction_id: tag,
    voucher_number: tag,
    voucher_type: 'Journal',
    party_ledger: 'Office Rent',
    date: '2026-04-15',
    narration,
    ledger_entries: [
      { ledger_name: 'Office Rent', amount: 75, is_debit: true },
      { ledger_name: 'Freight & Cartage', amount: 75, is_debit: false },
    ],
  };
}
