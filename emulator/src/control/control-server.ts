// The control API (tests and demos only; never on the XML port), JSON over HTTP:
// books stop/start, companies close/open/import, latency, faults (global and per company, TallyPrime's
// modal dialogs and crashes), what is booked, reset, and how long the books have been busy.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { COMPANY_FAULT_KINDS, FAULT_KINDS, type CompanyFaultKind, type FaultKind } from '../faults.js';
import { CompanyLoadError, type CompanyLoadIn } from '../seeds/company-load.js';
import type { BooksStore } from '../state/books-store.js';
import type { XmlServer } from '../xml-server.js';
import { companiesJson, mastersJson, vouchersJson } from './books-json.js';

export interface ControlActions {
  startBooks(): Promise<void>;
  stopBooks(): Promise<void>;
  reset(body: Record<string, unknown>): Promise<void>;
  importCompany(input: CompanyLoadIn): Promise<unknown>;
}

type Reply = { status: number; body: unknown };

/** A control request that is well-formed JSON but asks for something impossible: answered 400. */
export class ControlInputError extends Error {}

const ok = (body: unknown = { success: true }): Reply => ({ status: 200, body });
const bad = (message: string): Reply => ({ status: 400, body: { success: false, error: message } });
const missing = (message: string): Reply => ({ status: 404, body: { success: false, error: message } });

export class ControlServer {
  private server: http.Server | undefined;
  port = 0;

  constructor(
    private readonly store: BooksStore,
    private readonly xml: XmlServer,
    private readonly actions: ControlActions,
    private readonly host: string,
  ) {}

  async start(port: number): Promise<void> {
    const server = http.createServer((req, res) => {
      void this.handle(req).then((reply) => {
        res.writeHead(reply.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private async handle(req: http.IncomingMessage): Promise<Reply> {
    let body: Record<string, unknown> = {};
    try {
      body = await readJson(req);
    } catch {
      return bad('body must be a JSON object');
    }
    try {
      return await this.route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://control'), body);
    } catch (error) {
      if (error instanceof ControlInputError || error instanceof CompanyLoadError) return bad(error.message);
      console.error('emulator control: request failed', error);
      return { status: 500, body: { success: false, error: 'internal error' } };
    }
  }

  private async route(method: string, url: URL, body: Record<string, unknown>): Promise<Reply> {
    const parts = url.pathname.split('/').filter((p) => p !== '');
    const byGuid = parts[0] === 'companies' && parts[1] !== undefined && parts[1] !== 'import';
    const key = `${method} /${parts.map((p, i) => (byGuid && i === 1 ? '{guid}' : p)).join('/')}`;
    const books = byGuid ? this.store.byGuid(decodeURIComponent(parts[1]!)) : undefined;
    if (byGuid && !books) return missing(`no company with GUID ${parts[1]}`);
    switch (key) {
      case 'GET /status':
        return ok({
          books: this.xml.running ? 'running' : 'stopped',
          xmlPort: this.xml.port,
          latencyMs: this.xml.faults.latencyMs,
          faults: this.xml.faults.armed(),
          stalled: this.xml.faults.isStalled(),
          dialog: this.xml.faults.dialog ?? null,
          waiting: this.xml.waitingCount,
          companyFaults: this.xml.faults.companyFaultList(),
          lastSilence: this.xml.lastSilence ?? null,
        });
      case 'GET /busy':
        return ok(this.xml.busy.sample());
      case 'POST /books/stop':
        await this.actions.stopBooks();
        return ok({ books: 'stopped' });
      case 'POST /books/start':
        await this.actions.startBooks();
        return ok({ books: 'running' });
      case 'GET /companies':
        return ok(companiesJson(this.store));
      case 'POST /companies/{guid}/close':
      case 'POST /companies/{guid}/open':
        this.store.setOpen(books!, parts[2] === 'open');
        return ok({ guid: books!.record.guid, isOpen: books!.record.isOpen });
      case 'POST /companies/{guid}/faults': {
        const kind = body.kind;
        if (typeof kind !== 'string' || !(COMPANY_FAULT_KINDS as readonly string[]).includes(kind)) {
          return bad(`kind must be one of ${COMPANY_FAULT_KINDS.join(', ')}`);
        }
        this.xml.faults.setCompanyFault(books!.record.guid, kind as CompanyFaultKind);
        return ok({ guid: books!.record.guid, kind });
      }
      case 'POST /companies/{guid}/faults/clear': {
        const dismissed = this.xml.faults.clearCompany(books!.record.guid);
        return ok({ guid: books!.record.guid, dismissed: dismissed ?? null });
      }
      case 'POST /companies/import':
        return ok(await this.actions.importCompany(companyLoadInput(body)));
      case 'GET /companies/{guid}/vouchers':
        return ok(vouchersJson(books!));
      case 'GET /companies/{guid}/masters': {
        const masters = mastersJson(books!, url.searchParams.get('type'));
        return masters ? ok(masters) : bad('unknown master type');
      }
      case 'POST /latency': {
        const ms = body.ms;
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 600_000) return bad('ms must be a number from 0 to 600000');
        this.xml.faults.latencyMs = ms;
        return ok({ latencyMs: ms });
      }
      case 'POST /faults': {
        const kind = body.kind;
        if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
          return bad(`kind must be one of ${FAULT_KINDS.join(', ')}`);
        }
        const id = body.id;
        if (id !== undefined && (kind !== 'truncate-export' || typeof id !== 'string' || id.trim() === '')) {
          return bad('id (a report or collection name) applies to truncate-export only, as a non-empty string');
        }
        this.xml.faults.arm(kind as FaultKind, id);
        return ok({ armed: this.xml.faults.armed() });
      }
      case 'POST /faults/clear': {
        const dismissed = this.xml.faults.clear();
        return ok({ armed: [], dismissed: dismissed ?? null });
      }
      case 'POST /reset':
        await this.actions.reset(body);
        return ok(companiesJson(this.store));
      default:
        return missing(`no route ${method} ${url.pathname}`);
    }
  }
}

/** Checks the JSON body of `POST /companies/import` field by field (400 with the field's name). */
function companyLoadInput(body: Record<string, unknown>): CompanyLoadIn {
  const text = (field: string, required = false): string | undefined => {
    const value = body[field];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') throw new ControlInputError(`${field} must be a non-empty string`);
    return value;
  };
  const flag = (field: string): boolean | undefined => {
    const value = body[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw new ControlInputError(`${field} must be true or false`);
    return value;
  };
  const input: CompanyLoadIn = { xml: text('xml', true)! };
  const name = text('name');
  if (name !== undefined) input.name = name;
  for (const field of ['booksFrom', 'periodFrom', 'periodTo', 'stateName'] as const) {
    const value = text(field);
    if (value !== undefined) input[field] = value;
  }
  for (const field of ['gstEnabled', 'inventoryEnabled', 'active'] as const) {
    const value = flag(field);
    if (value !== undefined) input[field] = value;
  }
  return input;
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
  return parsed as Record<string, unknown>;
}
