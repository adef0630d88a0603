// TallyPrime's import counters, aggregated over every object of a request, and the two answer
// shapes: the legacy bare <RESPONSE> (LINEERRORs first, then the ten counters, one line) and the
// VERSION 1 ENVELOPE/HEADER/STATUS + BODY/DATA/IMPORTRESULT.
import { node, renderCompact, renderDocument, type XNode } from '../xml/xml-tree.js';

export type Counter = 'created' | 'altered' | 'deleted' | 'combined' | 'ignored' | 'errors' | 'cancelled' | 'exceptions';

export interface ObjectOutcome {
  counter?: Counter;
  lineError?: string;
  lastVchId?: number;
}

export const ok = (counter: Counter, lastVchId?: number): ObjectOutcome => ({ counter, lastVchId });
export const rejected = (lineError: string | undefined, counter: Counter = 'exceptions'): ObjectOutcome => ({
  counter,
  lineError,
});
/** A LINEERROR with every counter left at 0 (as for `Cannot delete unnamed object: VOUCHER!`). */
export const noted = (lineError: string): ObjectOutcome => ({ lineError });

const COUNTER_TAGS: [string, keyof ImportCounters][] = [
  ['CREATED', 'created'],
  ['ALTERED', 'altered'],
  ['DELETED', 'deleted'],
  ['LASTVCHID', 'lastVchId'],
  ['LASTMID', 'lastMid'],
  ['COMBINED', 'combined'],
  ['IGNORED', 'ignored'],
  ['ERRORS', 'errors'],
  ['CANCELLED', 'cancelled'],
  ['EXCEPTIONS', 'exceptions'],
];

export interface ImportCounters {
  created: number;
  altered: number;
  deleted: number;
  lastVchId: number;
  lastMid: number;
  combined: number;
  ignored: number;
  errors: number;
  cancelled: number;
  exceptions: number;
}

export class ImportResult {
  readonly counters: ImportCounters = {
    created: 0,
    altered: 0,
    deleted: 0,
    lastVchId: 0,
    lastMid: 0,
    combined: 0,
    ignored: 0,
    errors: 0,
    cancelled: 0,
    exceptions: 0,
  };
  readonly lineErrors: string[] = [];

  add(outcome: ObjectOutcome): void {
    if (outcome.counter) this.counters[outcome.counter] += 1;
    if (outcome.lineError) this.lineErrors.push(outcome.lineError);
    if (outcome.lastVchId !== undefined) this.counters.lastVchId = outcome.lastVchId;
  }

  failed(outcome: ObjectOutcome): boolean {
    return outcome.counter === 'errors' || outcome.counter === 'exceptions' || (!outcome.counter && !!outcome.lineError);
  }

  private counterNodes(): XNode[] {
    return COUNTER_TAGS.map(([tag, key]) => node(tag, String(this.counters[key])));
  }

  renderLegacy(): string {
    const response = node('RESPONSE', '', {}, [
      ...this.lineErrors.map((text) => node('LINEERROR', text)),
      ...this.counterNodes(),
    ]);
    return renderCompact(response) + '\r\n';
  }

  /** STATUS is 1 when every object went in, 0 when any object was refused (best guess). */
  renderVersion1(): string {
    const anyFailure = this.counters.errors + this.counters.exceptions > 0 || this.lineErrors.length > 0;
    const envelope = node('ENVELOPE', '', {}, [
      node('HEADER', '', {}, [node('VERSION', '1'), node('STATUS', anyFailure ? '0' : '1')]),
      node('BODY', '', {}, [
        node('DATA', '', {}, [
          node('IMPORTRESULT', '', {}, this.counterNodes()),
          ...this.lineErrors.map((text) => node('LINEERROR', text)),
        ]),
      ]),
    ]);
    return renderDocument(envelope);
  }
}
