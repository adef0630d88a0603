// Whether TallyPrime's program runs, read from Windows' own process lists as they print (tasklist's CSV,
// wmic's UTF-16 table), and the one question it answers: TallyPrime closed, or open with its XML port off.
import { describe, expect, it } from 'vitest';
import { testClock } from '@ledgerwire/test-kit';
import { booksOnThisComputer, programOutputText, readTasklist, readWmic, tallyProgramState, TallyProgramWatch } from '../../src/core/books/tally-program.js';
import { booksAttention, describeBooks } from '../../src/core/service/connector-status.js';

const stopped = { running: false, problem: 'nothing answers', companies: [], checkedAt: '2026-11-29T00:00:00.000Z' } as const;

describe("TallyPrime's program", () => {
  it('reads tasklist: a row for tally.exe, or its INFO line when there is none, or nothing at all', () => {
    expect(readTasklist('"tally.exe","4312","Console","1","412,004 K"\r\n')).toBe('running');
    expect(readTasklist('"Tally.exe","4312","Console","1","412,004 K"\r\n')).toBe('running');
    expect(readTasklist('INFO: No tasks are running which match the specified criteria.\r\n')).toBe('not_running');
    expect(readTasklist('')).toBe('unknown');
  });

  it('reads wmic in UTF-16 as Windows writes it into a pipe', () => {
    const table = (names: string[]) => Buffer.from(`\uFEFFName  \r\n${names.map((n) => `${n}  \r\n`).join('')}`, 'utf16le');
    expect(readWmic(programOutputText(table(['explorer.exe', 'tally.exe'])))).toBe('running');
    expect(readWmic(programOutputText(table(['explorer.exe', 'services.exe'])))).toBe('not_running');
    expect(readWmic(programOutputText(Buffer.from('Error: Command line not supported\r\n')))).toBe('unknown');
  });

  it('asks tasklist first and wmic only when tasklist says nothing; elsewhere than Windows it cannot tell', async () => {
    const asked: string[] = [];
    const state = await tallyProgramState('win32', async (file) => {
      asked.push(file);
      return file === 'tasklist.exe' ? Buffer.alloc(0) : Buffer.from('Name\r\nTally.exe\r\n');
    });
    expect(state).toBe('running');
    expect(asked).toEqual(['tasklist.exe', 'wmic.exe']);
    expect(await tallyProgramState('linux', async () => Buffer.from('never asked'))).toBe('unknown');
  });

  it('is asked at most once per gap, and not at all while the books answer', async () => {
    const clock = testClock(0);
    let asks = 0;
    const watch = new TallyProgramWatch({ minGapMs: 5_000, now: clock.now, ask: async () => ((asks += 1), 'running') });
    expect(await watch.refresh()).toBe(true);
    expect(await watch.refresh()).toBe(false);
    clock.set(5_000);
    expect(await watch.refresh()).toBe(false);
    expect(asks).toBe(2);
    watch.reset();
    expect(watch.state).toBe('unknown');
  });

  it('tells closed TallyPrime from an XML port that is off, on this computer only', () => {
    const local = 'http://127.0.0.1:9000';
    expect(booksAttention(stopped, local, 'not_running')).toBe('tally_closed');
    expect(booksAttention(stopped, local, 'running')).toBe('xml_port_off');
    expect(booksAttention(stopped, local, 'unknown')).toBe('not_answering');
    expect(booksAttention(stopped, 'http://192.168.1.20:9000', 'running')).toBe('other_computer');
    expect(booksAttention({ ...stopped, running: true, problem: 'the books are running but no company is open' }, local, 'unknown')).toBe('no_company_open');
    expect(booksAttention({ ...stopped, running: true, problem: null, companies: [{ guid: 'g', name: 'Acme' } as never] }, local, 'unknown')).toBeNull();
    expect(describeBooks(stopped, null, local, 'running')).toBe(
      'TallyPrime is open, but it does not let other programs connect on port 9000: its XML port is off. Turn it on as shown below; waiting vouchers then go in.',
    );
    expect(describeBooks(stopped, null, local, 'not_running')).toBe('TallyPrime is not open on this computer. Open TallyPrime and load your company; waiting vouchers then go in.');
    expect(booksOnThisComputer('http://localhost:9000')).toBe(true);
    expect(booksOnThisComputer('http://[::1]:9000')).toBe(true);
    expect(booksOnThisComputer('http://accounts-pc:9000')).toBe(false);
  });
});
