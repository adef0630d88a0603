// The connection to the books is kept between requests even when the books announce a keep-alive of
// one second (as the emulator does), where Node's own agent would open a new one for every request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAliveSeconds } from '../src/core/books/books-agent.js';
import { BooksClient } from '../src/core/books/books-client.js';
import { BooksRequestError } from '../src/core/books/books-errors.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that answers every POST with a small XML body and counts the TCP connections it accepted. */
async function countingServer(options: { keepAliveMs: number; close?: boolean }): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', ...(options.close ? { connection: 'close' } : {}) });
      res.end('<RESPONSE>ok</RESPONSE>');
    });
  });
  server.keepAliveTimeout = options.keepAliveMs;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe('books connection', () => {
  it('sends consecutive requests over one connection when the books announce Keep-Alive: timeout=1', async () => {
    const books = await countingServer({ keepAliveMs: 1000 });
    const client = new BooksClient({ url: books.url, timeoutMs: 5000 });
    for (let i = 0; i < 3; i += 1) expect(await client.request('<ENVELOPE/>')).toContain('ok');
    client.close();
    expect(books.connections()).toBe(1);
  });

  it('opens a new connection per request when the books close theirs', async () => {
    const books = await countingServer({ keepAliveMs: 1000, close: true });
    const client = new BooksClient({ url: books.url, timeoutMs: 5000 });
    for (let i = 0; i < 3; i += 1) expect(await client.request('<ENVELOPE/>')).toContain('ok');
    client.close();
    expect(books.connections()).toBe(3);
  });

  it('sends a read once more on a new connection when the kept one breaks before any answer; never an import', async () => {
    // The books drop the kept connection as the second request arrives on it, as when they closed it
    // idle while the connector was about to reuse it: nothing is answered on it.
    let connections = 0;
    const requestsOn = new WeakMap<object, number>();
    server = http.createServer((req, res) => {
      const seen = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, seen);
      if (seen === 2) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'keep-alive': 'timeout=5' });
        res.end('<RESPONSE>ok</RESPONSE>');
      });
    });
    server.keepAliveTimeout = 5000;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const reader = new BooksClient({ url, timeoutMs: 5000 });
    expect(await reader.request('<ENVELOPE/>', { readOnly: true })).toContain('ok');
    expect(await reader.request('<ENVELOPE/>', { readOnly: true })).toContain('ok');
    reader.close();
    expect(connections).toBe(2);

    const importer = new BooksClient({ url, timeoutMs: 5000 });
    expect(await importer.request('<ENVELOPE/>')).toContain('ok');
    const lost = await importer.request('<ENVELOPE/>').catch((error: unknown) => error);
    importer.close();
    expect(lost).toBeInstanceOf(BooksRequestError);
    expect(lost).toMatchObject({ kind: 'connection_lost', maybeReceived: true });
    expect(connections).toBe(3);
  });

  it('reads the announced idle time', () => {
    expect(keepAliveSeconds('timeout=1')).toBe(1);
    expect(keepAliveSeconds('max=100, timeout=5')).toBe(5);
    expect(keepAliveSeconds(undefined)).toBeUndefined();
    expect(keepAliveSeconds('max=100')).toBeUndefined();
  });
});
