// What the tray shows for a connector status: an icon per state and a one-line tooltip.
import type { ConnectorStatus } from '../core/index.js';

export type TrayState = 'ok' | 'attention' | 'offline';

export function trayStateOf(status: ConnectorStatus): TrayState {
  if (status.relay.state !== 'online') return 'offline';
  if (status.books.running !== true || status.pairings.some((p) => !p.open)) return 'attention';
  return 'ok';
}

export function trayIconFile(status: ConnectorStatus): string {
  return `tray-${trayStateOf(status)}.png`;
}

export function trayTooltip(status: ConnectorStatus): string {
  // The core already words each part for a person; the tooltip joins the two that matter most.
  return `Ledgerwire Connector — ${status.relay.description} ${status.books.description}`;
}
