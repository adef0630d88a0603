// Reads a Windows shortcut (.lnk, the MS-SHLLINK format) as the Start menu would use it: its target, the
// folder it starts in, its arguments and its icon. The Wine suite runs what the Start-menu entry says this
// way because Wine 8's `start` follows only the link's ANSI target path, which loses the letters of a
// non-ASCII user name (real Windows resolves the link's item list); the strings read here are exact.
import fs from 'node:fs';

export type ShellLink = Readonly<{ target: string; workingDir: string; arguments: string; icon: string }>;

const HAS_ID_LIST = 0x1;
const HAS_LINK_INFO = 0x2;
const STRINGS: readonly [number, 'name' | 'relativePath' | 'workingDir' | 'arguments' | 'icon'][] = [
  [0x4, 'name'],
  [0x8, 'relativePath'],
  [0x10, 'workingDir'],
  [0x20, 'arguments'],
  [0x40, 'icon'],
];
const IS_UNICODE = 0x80;

export function readShellLink(file: string): ShellLink {
  const bytes = fs.readFileSync(file);
  if (bytes.readUInt32LE(0) !== 0x4c) throw new Error(`${file} is not a Windows shortcut`);
  const flags = bytes.readUInt32LE(20);
  let at = 0x4c;
  if (flags & HAS_ID_LIST) at += 2 + bytes.readUInt16LE(at);
  let target = '';
  if (flags & HAS_LINK_INFO) {
    const size = bytes.readUInt32LE(at);
    const headerSize = bytes.readUInt32LE(at + 4);
    const basePathAt = at + bytes.readUInt32LE(at + 16);
    target = bytes.toString('latin1', basePathAt, bytes.indexOf(0, basePathAt));
    if (headerSize >= 0x24) {
      const unicodeAt = at + bytes.readUInt32LE(at + 28);
      let end = unicodeAt;
      while (bytes.readUInt16LE(end) !== 0) end += 2;
      target = bytes.toString('utf16le', unicodeAt, end);
    }
    at += size;
  }
  const strings: Record<string, string> = {};
  for (const [bit, name] of STRINGS) {
    if (!(flags & bit)) continue;
    const count = bytes.readUInt16LE(at);
    const width = flags & IS_UNICODE ? 2 : 1;
    // Wine counts the terminating NUL in; Windows does not.
    let text = bytes.toString(width === 2 ? 'utf16le' : 'latin1', at + 2, at + 2 + count * width);
    while (text.endsWith('\u0000')) text = text.slice(0, -1);
    strings[name] = text;
    at += 2 + count * width;
  }
  return { target, workingDir: strings['workingDir'] ?? '', arguments: strings['arguments'] ?? '', icon: strings['icon'] ?? '' };
}
