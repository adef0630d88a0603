// Makes the books' answers parseable by a strict XML parser as they stream in. The cleaning itself is the
// shared cleanBooksXml (the `&#4; ` system marker, forbidden references and raw control characters go);
// this only holds back a reference cut between two chunks until the rest of it arrives.
import { cleanBooksXml } from '@ledgerwire/shared';

/** Longest tail that could be the start of a reference (`&#…;` plus the marker's space). */
const HOLD_BACK = 12;

export class StreamingCleaner {
  private pending = '';

  push(chunk: string): string {
    const text = this.pending + chunk;
    const amp = text.lastIndexOf('&', text.length - 1);
    // Hold back from the last '&' if it may be an unfinished reference, or a finished `&#4;` whose
    // following space has not arrived yet.
    let cut = text.length;
    if (amp !== -1 && text.length - amp <= HOLD_BACK) {
      const tail = text.slice(amp);
      if (!tail.includes(';') || /^&#0*4;$/.test(tail)) cut = amp;
    }
    this.pending = text.slice(cut);
    return cleanBooksXml(text.slice(0, cut));
  }

  flush(): string {
    const rest = cleanBooksXml(this.pending);
    this.pending = '';
    return rest;
  }
}
