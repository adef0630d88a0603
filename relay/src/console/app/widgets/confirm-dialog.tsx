// The console's own confirmation dialog, in place of the browser's confirm(): a modal <dialog> named
// by its title and described by its question, focus kept inside it (Tab and Shift+Tab cycle), Escape
// or Cancel answers no, and focus returns to whatever opened it. Generic: it will move to the UI kit.
//
//   const { confirm, dialog } = useConfirmDialog();
//   if (!(await confirm({ title: 'Disconnect?', message: '…', confirmLabel: 'Disconnect', danger: true }))) return;
//   … and render {dialog} somewhere in the component.
import type { ComponentChildren, JSX, VNode } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';

export type ConfirmRequest = Readonly<{
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  cancelLabel?: string;
  /** A destructive action: the confirm button is red. */
  danger?: boolean;
}>;

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function ConfirmDialog(props: ConfirmRequest & { onAnswer: (confirmed: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();
  const { onAnswer } = props;

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    // The safe answer has the focus first: Enter on a dialog opened by mistake changes nothing.
    cancelRef.current?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const keepFocusInside = (event: JSX.TargetedKeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      class="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onKeyDown={keepFocusInside}
      onCancel={(event) => {
        // Escape: answer no ourselves, so the state that rendered the dialog is cleared too.
        event.preventDefault();
        onAnswer(false);
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <div id={messageId} class="confirm-dialog-message">
        {props.message}
      </div>
      <div class="form-actions confirm-dialog-actions">
        <button type="button" class="secondary" ref={cancelRef} onClick={() => onAnswer(false)}>
          {props.cancelLabel ?? 'Cancel'}
        </button>
        <button type="button" class={props.danger ? 'danger' : undefined} onClick={() => onAnswer(true)}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** A confirm() that answers through the console's dialog: render `dialog`, await `confirm(request)`. */
export function useConfirmDialog(): Readonly<{ confirm: (request: ConfirmRequest) => Promise<boolean>; dialog: VNode | null }> {
  const [pending, setPending] = useState<{ request: ConfirmRequest; resolve: (answer: boolean) => void } | undefined>(undefined);
  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        setPending((previous) => {
          // A second question replaces an unanswered first one, which counts as cancelled.
          previous?.resolve(false);
          return { request, resolve };
        });
      }),
    [],
  );
  const dialog = pending ? (
    <ConfirmDialog
      {...pending.request}
      onAnswer={(answer) => {
        pending.resolve(answer);
        setPending(undefined);
      }}
    />
  ) : null;
  return { confirm, dialog };
}
