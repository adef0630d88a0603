// Fault injection for tests and demos, set through the control API: added latency, a stalled request
// (as behind a TallyPrime modal dialog) until cleared, a connection dropped after an import is
// applied — and optionally the books hanging from then on, so nothing can ask them again until the
// fault is cleared — an import applied whose answer is cut short, and a truncated export (the next
// one, or the next one of a named report or collection: a client's probe would otherwise take the fault
// meant for the export after it).
//
// It also holds TallyPrime's own failure modes (see books-silence.ts): an open modal dialog, which holds
// the gateway until someone "clicks OK" (`POST /faults/clear`), and per-company faults that make the next
// request addressed to that company raise a dialog or crash the books.
import type { BooksSilence } from './books-silence.js';

export const FAULT_KINDS = ['stall-next', 'drop-after-import', 'hang-after-import', 'cut-import-answer', 'truncate-export'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const COMPANY_FAULT_KINDS = ['modal-dialog', 'crash'] as const;
export type CompanyFaultKind = (typeof COMPANY_FAULT_KINDS)[number];

/** A dialog on TallyPrime's desktop: what it says, which company's request raised it, and since when. */
export interface OpenDialog {
  text: string;
  companyGuid: string | undefined;
  /** TallyPrime exits once this dialog is dismissed (the books are then stopped). */
  exitsOnDismiss: boolean;
  openedAt: string;
}

export class Faults {
  latencyMs = 0;
  /** Armed faults, each with the report or collection ID it waits for (undefined: any request). */
  private pending = new Map<FaultKind, string | undefined>();
  private release: (() => void) | undefined;
  private stalled: Promise<void> | undefined;
  private dialogState: { dialog: OpenDialog; dismissed: Promise<void>; dismiss: () => void } | undefined;
  private readonly companyFaults = new Map<string, CompanyFaultKind>();

  /** Arms a one-shot fault; with `id`, only for a request for that report or collection (case aside). */
  arm(kind: FaultKind, id?: string): void {
    this.pending.set(kind, id?.trim().toLowerCase());
  }

  /** Takes a one-shot fault if armed for this request (`id`: the report or collection it asks for). */
  take(kind: FaultKind, id?: string): boolean {
    if (!this.pending.has(kind)) return false;
    const wanted = this.pending.get(kind);
    if (wanted !== undefined && wanted !== id?.trim().toLowerCase()) return false;
    return this.pending.delete(kind);
  }

  armed(): FaultKind[] {
    return [...this.pending.keys()];
  }

  /** Every request from now on is held (the queue with it) until `clear()`. */
  hang(): void {
    void this.stall();
  }

  /** A stall holds the request (and so the whole queue) until `clear()`. */
  stall(): Promise<void> {
    if (!this.stalled) {
      this.stalled = new Promise<void>((resolve) => {
        this.release = resolve;
      });
    }
    return this.stalled;
  }

  isStalled(): boolean {
    return this.stalled !== undefined;
  }

  // ---- TallyPrime's modal dialogs ----

  /** Opens a dialog; the promise settles when it is dismissed. One dialog at a time, as on a desktop. */
  openDialog(silence: BooksSilence, companyGuid: string | undefined): Promise<void> {
    if (this.dialogState) return this.dialogState.dismissed;
    let dismiss: () => void = () => undefined;
    const dismissed = new Promise<void>((resolve) => {
      dismiss = resolve;
    });
    const dialog: OpenDialog = { text: silence.dialog, companyGuid, exitsOnDismiss: silence.exitsOnDismiss, openedAt: new Date().toISOString() };
    this.dialogState = { dialog, dismissed, dismiss };
    return dismissed;
  }

  get dialog(): OpenDialog | undefined {
    return this.dialogState?.dialog;
  }

  /** "Clicks OK": the held request is let go; returns the dialog that was open, if any. */
  dismissDialog(companyGuid?: string): OpenDialog | undefined {
    const state = this.dialogState;
    if (!state) return undefined;
    if (companyGuid !== undefined && state.dialog.companyGuid?.toLowerCase() !== companyGuid.toLowerCase()) return undefined;
    this.dialogState = undefined;
    state.dismiss();
    return state.dialog;
  }

  // ---- per-company faults ----

  setCompanyFault(guid: string, kind: CompanyFaultKind): void {
    this.companyFaults.set(guid.toLowerCase(), kind);
  }

  companyFault(guid: string): CompanyFaultKind | undefined {
    return this.companyFaults.get(guid.toLowerCase());
  }

  /** A crash fires once: the books "restart" without it, as a restarted TallyPrime would. */
  takeCompanyCrash(guid: string): boolean {
    if (this.companyFault(guid) !== 'crash') return false;
    this.companyFaults.delete(guid.toLowerCase());
    return true;
  }

  clearCompany(guid: string): OpenDialog | undefined {
    this.companyFaults.delete(guid.toLowerCase());
    return this.dismissDialog(guid);
  }

  companyFaultList(): { guid: string; kind: CompanyFaultKind }[] {
    return [...this.companyFaults.entries()].map(([guid, kind]) => ({ guid, kind }));
  }

  /** Disarms every fault, releases a stall and dismisses an open dialog (returned, if one was open). */
  clear(): OpenDialog | undefined {
    this.pending.clear();
    this.companyFaults.clear();
    this.release?.();
    this.release = undefined;
    this.stalled = undefined;
    return this.dismissDialog();
  }
}
