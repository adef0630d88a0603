// The package entry of @ledgerwire/ui-kit: components, hooks and the base stylesheet (imported here
// so that any bundle using the kit carries it, ahead of the app's own stylesheet).
import './base.css';

export { Badge, Checkbox, Empty, ErrorNotice, Field, LoadedView, Notice, OneTimeSecret, Page, Panel, Select, StatusBadge, Table, TextInput, When } from './components.js';
export type { Column } from './components.js';
export { describeError } from './describe-error.js';
export { ProgressBar } from './progress-bar.js';
export { useAutoRefresh } from './use-auto-refresh.js';
export { useAction, useLoad } from './use-load.js';
export type { Loaded } from './use-load.js';
