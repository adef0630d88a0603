// Enrolment settings: which relay, which credential, which books, this machine's name.
import type { LocalDatabase } from './local-database.js';

export type Enrolment = Readonly<{
  relayUrl: string;
  connectorId: string;
  credential: string;
  machineName: string;
}>;

type SettingKey = 'relay_url' | 'connector_id' | 'credential' | 'machine_name' | 'books_url';

export class SettingsStore {
  constructor(private readonly db: LocalDatabase) {}

  private get(key: SettingKey): string | undefined {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  private set(key: SettingKey, value: string): void {
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  enrolment(): Enrolment | undefined {
    const relayUrl = this.get('relay_url');
    const connectorId = this.get('connector_id');
    const credential = this.get('credential');
    if (!relayUrl || !connectorId || !credential) return undefined;
    return { relayUrl, connectorId, credential, machineName: this.get('machine_name') ?? '' };
  }

  saveEnrolment(enrolment: Enrolment): void {
    this.db.transaction(() => {
      this.set('relay_url', enrolment.relayUrl);
      this.set('connector_id', enrolment.connectorId);
      this.set('credential', enrolment.credential);
      this.set('machine_name', enrolment.machineName);
    });
  }

  /** The relay's address: the enrolled one, or the one given before enrolment (the installer's /RELAY). */
  relayUrl(): string | undefined {
    return this.get('relay_url');
  }

  /** Remembers the relay's address before enrolment; enrolment keeps its own. */
  saveRelayUrl(url: string): void {
    this.set('relay_url', url);
  }

  booksUrl(): string | undefined {
    return this.get('books_url');
  }

  saveBooksUrl(url: string): void {
    this.set('books_url', url);
  }
}
