// Small building blocks every page of the product uses (console and connector page alike): page frame,
// panels, notices, loading and empty states, tables that become cards in a narrow window, labelled
// fields and status badges.
import type { ComponentChildren, JSX } from 'preact';
import { describeError } from './describe-error.js';
import type { Loaded } from './use-load.js';

export function Page(props: { title: string; intro?: string; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-header">
        <div>
          <h1 id="page-title">{props.title}</h1>
          {props.intro && <p class="intro">{props.intro}</p>}
        </div>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

export function Panel(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const id = `panel-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section class="panel" aria-labelledby={id}>
      <header class="panel-header">
        <h2 id={id}>{props.title}</h2>
        {props.actions}
      </header>
      {props.children}
    </section>
  );
}

export function ErrorNotice(props: { error: unknown; title?: string }) {
  if (props.error === undefined) return null;
  return (
    <div class="notice notice-error" role="alert">
      {props.title && <strong>{props.title} </strong>}
      {describeError(props.error)}
    </div>
  );
}

export function Notice(props: { tone?: 'info' | 'success' | 'warning'; children: ComponentChildren; label?: string }) {
  return (
    <div class={`notice notice-${props.tone ?? 'info'}`} role="status" aria-label={props.label}>
      {props.children}
    </div>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}

/** Renders loading / error / content for data from useLoad. */
export function LoadedView<T>(props: { loaded: Loaded<T>; what: string; children: (data: T) => ComponentChildren }) {
  const { data, error, loading } = props.loaded;
  if (error !== undefined) return <ErrorNotice error={error} title={`Could not load ${props.what}.`} />;
  if (data === undefined) return loading ? <p class="loading" role="status">Loading {props.what}…</p> : null;
  return <>{props.children(data)}</>;
}

export type Column<T> = Readonly<{ title: string; cell: (row: T) => ComponentChildren }>;

/** A table; in a narrow window each row becomes a card whose cells carry their column titles. */
export function Table<T>(props: {
  caption: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  empty: ComponentChildren;
  /** data-* attributes of a row (its id, its state), for styling and for tests to find it. */
  rowData?: (row: T) => Readonly<Record<`data-${string}`, string>>;
}) {
  if (props.rows.length === 0) return <Empty>{props.empty}</Empty>;
  return (
    <div class="table-wrap">
      <table aria-label={props.caption}>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col" key={c.title}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)} {...(props.rowData?.(row) ?? {})}>
              {props.columns.map((c) => (
                <td data-title={c.title} key={c.title}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Field(props: { label: string; hint?: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span class="field-label">{props.label}</span>
      {props.children}
      {props.hint && <span class="field-hint">{props.hint}</span>}
    </label>
  );
}

export function TextInput(props: { label: string; value: string; onInput: (value: string) => void; hint?: string } & Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'label'>) {
  const { label, value, onInput, hint, ...rest } = props;
  return (
    <Field label={label} {...(hint ? { hint } : {})}>
      <input {...rest} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
    </Field>
  );
}

export function Select(props: { label: string; value: string; onChange: (value: string) => void; options: readonly (readonly [string, string])[] }) {
  return (
    <Field label={props.label}>
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.options.map(([value, text]) => (
          <option value={value} key={value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function Checkbox(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label class="checkbox">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.currentTarget.checked)} />
      <span>{props.label}</span>
    </label>
  );
}

type Tone = 'good' | 'bad' | 'warn' | 'neutral';

export function Badge(props: { tone: Tone; children: ComponentChildren }) {
  return <span class={`badge badge-${props.tone}`}>{props.children}</span>;
}

const statusTones: Record<string, Tone> = {
  active: 'good',
  suspended: 'bad',
  completed: 'good',
  failed: 'bad',
  queued: 'neutral',
  processing: 'warn',
  sent: 'good',
  delivered: 'good',
  opened: 'good',
  clicked: 'good',
  bounced: 'bad',
  succeeded: 'good',
  pending: 'warn',
  cancelled: 'neutral',
};

export function StatusBadge(props: { status: string }) {
  return <Badge tone={statusTones[props.status] ?? 'neutral'}>{props.status}</Badge>;
}

export function When(props: { at: string | null | undefined }) {
  if (!props.at) return <span class="muted">—</span>;
  const date = new Date(props.at);
  return <time dateTime={props.at} title={props.at}>{Number.isNaN(date.getTime()) ? props.at : date.toLocaleString()}</time>;
}

/** A secret shown once, with a copy button; the page says it will not be shown again. */
export function OneTimeSecret(props: { label: string; value: string; onDismiss: () => void; children?: ComponentChildren }) {
  return (
    <div class="notice notice-success one-time" role="status" aria-label={props.label}>
      <p>
        <strong>{props.label}</strong> — copy it now: it is shown only this once and cannot be shown again.
      </p>
      <code class="secret" aria-label={`${props.label} value`}>{props.value}</code>
      {props.children}
      <div class="row">
        <button type="button" onClick={() => void navigator.clipboard?.writeText(props.value)}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={props.onDismiss}>
          I have stored it
        </button>
      </div>
    </div>
  );
}
