// Where the local page comes from: pre-built beside the packaged program (the Windows package and
// `npm run build` define LEDGERWIRE_PACKAGED when they bundle the connector, and put the page in ui\
// next to it), or bundled in memory at start when run from the sources.
import path from 'node:path';

declare const LEDGERWIRE_PACKAGED: boolean | undefined;

export function packagedPageDir(script: string = process.argv[1] ?? ''): string | undefined {
  if (typeof LEDGERWIRE_PACKAGED === 'undefined' || !LEDGERWIRE_PACKAGED) return undefined;
  return path.join(path.dirname(script), 'ui');
}
