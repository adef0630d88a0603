// Captured TallyPrime answers copied from /work/shared/reference/tally-samples (see SOURCES.md there and in
// fixtures/tally-samples: provenance, licences, which files are native captures).
import { readFileSync } from 'node:fs';
import { decodeBooksResponse } from '../../src/index.js';

const ROOT = new URL('../fixtures/tally-samples/', import.meta.url);

export function sampleBytes(path: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(path, ROOT)));
}

/** A sample as text, decoded the way the connector decodes the books' answers (UTF-16LE detected). */
export function sample(path: string): string {
  return decodeBooksResponse(sampleBytes(path));
}
