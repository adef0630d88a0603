// The connection to the books is kept between requests even when the books announce a keep-alive of
// one second (as the emulator does), where Node's own agent would open a new one for every request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAliveSeconds } from '../src/core/books/books-agent.js';
import { BooksClient } from '../src/core/books/books-client.js';

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

  it('reads the announced idle time', () => {
    expect(keepAliveSeconds('timeout=1')).toBe(1);
    expect(keepAliveSeconds('max=100, timeout=5')).toBe(5);
    expect(keepAliveSeconds(undefined)).toBeUndefined();
    expect(keepAliveSeconds('max=100')).toBeUndefined();
  });
});
