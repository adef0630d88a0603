// What the tray shows for a connector status: an icon per state and a one-line tooltip.
import type { ConnectorStatus } from '../core/index.js';

export type TrayState = 'ok' | 'attention' | 'offline';

export function trayStateOf(status: ConnectorStatus): TrayState {
  if (status.relay.state !== 'connected') return 'offline';
  if (!status.books.running) return 'attention';
  return 'ok';
}

export function trayIconFile(status: ConnectorStatus): string {
  return `tray-${trayStateOf(status)}.png`;
}

export function trayTooltip(status: ConnectorStatus): string {
  const relay = status.relay.state === 'connected' ? 'connected to Ledgerwire' : 'not connected to Ledgerwire';
  const books = status.books.running ? 'TallyPrime is running' : 'TallyPrime is not running';
  return `Ledgerwire Connector — ${relay}; ${books}`;
}
