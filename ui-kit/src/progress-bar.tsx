// A progress bar that says what it measures: a share in percent, or "under way, amount unknown" (no
// value: an animated stripe), with the words a screen reader reads instead of a bare number.
// The fill's width is set through the DOM's style object, which a strict style-src policy allows.
export function ProgressBar(props: { label: string; percent: number | null; valueText: string }) {
  const percent = props.percent === null ? null : Math.max(0, Math.min(100, Math.round(props.percent)));
  return (
    <div
      class={`progress${percent === null ? ' progress-unknown' : ''}`}
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={props.valueText}
    >
      <div class="progress-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
    </div>
  );
}
