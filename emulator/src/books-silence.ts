// Requests TallyPrime does not answer. Public probes of live TallyPrime 7.x record two kinds (see
// emulator/evidence/exports-and-failures.md): a modal dialog on the desktop, while which the XML gateway
// accepts connections and serves nobody until a human clicks OK (some dialogs end with TallyPrime
// exiting), and a crash, where the connection drops with no reply and the port goes away. Export and
// request code throw a BooksSilence; the XML server acts it out instead of answering.

export type SilenceKind = 'modal-dialog' | 'crash';

export class BooksSilence extends Error {
  constructor(
    readonly kind: SilenceKind,
    /** The dialog text (or, for a crash, what brought TallyPrime down). */
    readonly dialog: string,
    /** TallyPrime exits once the dialog is dismissed. */
    readonly exitsOnDismiss = false,
  ) {
    super(`${kind}: ${dialog}`);
  }
}

export const silences = {
  /** Unknown collection TYPE (lamemustafa/bridge IMPLEMENTATION_GUIDE §5.3a; MarketingBNG/Tally-MCP probe-findings-2026-08-14 §1). */
  incorrectObjectType: () => new BooksSilence('modal-dialog', 'Internal Error. Contact Tally Solutions. Incorrect Object Type!'),
  /** A collection ID with no definition (MarketingBNG/Tally-MCP known-limitations: dialog, then TallyPrime exited). */
  collectionNotDescribed: (id: string) => new BooksSilence('modal-dialog', `Error in TDL. 'Collection:${id}' Could not find description!`, true),
  /** A FILTER naming a formula the request does not define: the same "no description" dialog (by analogy; no capture). */
  formulaNotDescribed: (name: string) => new BooksSilence('modal-dialog', `Error in TDL. 'Formula:${name}' Could not find description!`),
  /** `$$InDateRange` in a collection filter (ripu-nuvanta/tally_agent LESSONS.md §3, TallyPrime 7.0). */
  inDateRange: () => new BooksSilence('crash', '$$InDateRange in a collection formula'),
  /** `<UNIT NAME="…" ACTION="Delete">` (ripu-nuvanta/tally_agent write-exploration-v4: memory access violation). */
  unitDelete: () => new BooksSilence('crash', 'UNIT NAME="…" ACTION="Delete" in an import'),
  /** Switched on for a company through the control API. */
  companyDialog: () => new BooksSilence('modal-dialog', 'Internal Error. Contact Tally Solutions. (modal dialog raised through the control API)'),
  companyCrash: () => new BooksSilence('crash', 'crash raised through the control API'),
};
