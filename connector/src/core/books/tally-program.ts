// Whether TallyPrime's program is running on this computer. The books' port cannot tell two cases
// apart that a shop owner fixes differently: a refused connection means TallyPrime is closed, or open
// with its XML port off. The process list can: `tasklist` (on every Windows since XP), or `wmic` where
// tasklist gives nothing (Wine's tasklist prints nothing at all; wmic is gone from new Windows 11, so it
// comes second). Image name `tally.exe`: see emulator/evidence/exports-and-failures.md ("TallyPrime's
// program") for how sure that is.
import { execFile } from 'node:child_process';

export type TallyProgramState = 'running' | 'not_running' | 'unknown';

export const TALLY_IMAGE_NAME = 'tally.exe';

/** Runs a program and gives back its standard output as bytes (empty when it failed). */
export type RunProgram = (file: string, args: readonly string[]) => Promise<Buffer>;

const runProgram: RunProgram = (file, args) =>
  new Promise((resolve) => {
    execFile(file, [...args], { windowsHide: true, timeout: 10_000, encoding: 'buffer', maxBuffer: 1024 * 1024 }, (error, stdout) => {
      resolve(error ? Buffer.alloc(0) : stdout);
    });
  });

/** wmic writes UTF-16LE into a pipe, tasklist the console's code page; both are ASCII here. */
export function programOutputText(output: Buffer): string {
  const nulBytes = output.subarray(0, 200).filter((byte) => byte === 0).length;
  const text = nulBytes > 10 ? output.toString('utf16le') : output.toString('latin1');
  return text.replace(/^\uFEFF/, '');
}

/** `tasklist /FO CSV /NH` filtered by image name: a CSV row per process, or an INFO line when none. */
export function readTasklist(text: string, imageName: string = TALLY_IMAGE_NAME): TallyProgramState {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  if (lines.length === 0) return 'unknown';
  const quoted = `"${imageName.toLowerCase()}"`;
  return lines.some((line) => line.toLowerCase().startsWith(quoted)) ? 'running' : 'not_running';
}

/** `wmic process get Name`: a "Name" header, then one image name per line (no filter: Wine's wmic has none). */
export function readWmic(text: string, imageName: string = TALLY_IMAGE_NAME): TallyProgramState {
  const lines = text.split(/\r?\n/).map((line) => line.trim().toLowerCase());
  if (lines.includes(imageName.toLowerCase())) return 'running';
  return lines.includes('name') ? 'not_running' : 'unknown';
}

/** Asks Windows whether TallyPrime runs; 'unknown' on other systems or when neither program answers. */
export async function tallyProgramState(platform: NodeJS.Platform = process.platform, run: RunProgram = runProgram): Promise<TallyProgramState> {
  if (platform !== 'win32') return 'unknown';
  const listed = readTasklist(programOutputText(await run('tasklist.exe', ['/FI', `IMAGENAME eq ${TALLY_IMAGE_NAME}`, '/FO', 'CSV', '/NH'])));
  if (listed !== 'unknown') return listed;
  return readWmic(programOutputText(await run('wmic.exe', ['process', 'get', 'Name'])));
}

/** True when the books' address is this computer (only then does its process list say anything). */
export function booksOnThisComputer(booksUrl: string): boolean {
  if (!URL.canParse(booksUrl)) return false;
  const host = new URL(booksUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * The program's state, asked again at most every `minGapMs` and only while the books do not answer
 * (a process list costs a program start on Windows). `refresh` resolves true when the state changed.
 */
export class TallyProgramWatch {
  private value: TallyProgramState = 'unknown';
  private askedAt = Number.NEGATIVE_INFINITY;
  private asking: Promise<boolean> | undefined;

  constructor(
    private readonly options: Readonly<{ minGapMs: number; ask?: () => Promise<TallyProgramState>; now?: () => number }>,
  ) {}

  get state(): TallyProgramState {
    return this.value;
  }

  refresh(): Promise<boolean> {
    const now = (this.options.now ?? Date.now)();
    if (this.asking) return this.asking;
    if (now - this.askedAt < this.options.minGapMs) return Promise.resolve(false);
    this.askedAt = now;
    const ask = this.options.ask ?? (() => tallyProgramState());
    this.asking = ask()
      .catch((): TallyProgramState => 'unknown')
      .then((state) => {
        const changed = state !== this.value;
        this.value = state;
        return changed;
      })
      .finally(() => {
        this.asking = undefined;
      });
    return this.asking;
  }

  /** Forgets the last answer (the books answer again: the question is moot until they stop). */
  reset(): void {
    this.value = 'unknown';
    this.askedAt = Number.NEGATIVE_INFINITY;
  }
}
