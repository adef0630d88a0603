// The outbox's file writes on their worker thread (outbox-file-writer.ts): a dispatch claim's files
// written in one batch, each whole under its final name with nothing left aside; a write that fails
// says why (the errno code the outbox provider acts on) and leaves no temporary file; closing fails
// what was still waiting, so those messages are retried rather than left hanging.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { OutboxFileWriter } from '../../src/messaging/services/providers/outbox-file-writer.js';

let dir: string;
let writer: OutboxFileWriter;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-writer-'));
  writer = new OutboxFileWriter();
});
afterEach(async () => {
  await writer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('writes a batch of files whole under their names, none left aside, and a repeat replaces its file', async () => {
  const bodies = Array.from({ length: 300 }, (_, i) => Buffer.from(`message ${i}\r\n${'x'.repeat(i)}`));
  await Promise.all(bodies.map((body, i) => writer.write(path.join(dir, `m${i}.eml`), path.join(dir, `m${i}.eml.tmp`), body)));
  expect(fs.readdirSync(dir).sort()).toEqual(bodies.map((_, i) => `m${i}.eml`).sort());
  bodies.forEach((body, i) => expect(fs.readFileSync(path.join(dir, `m${i}.eml`))).toEqual(body));
  // A slice of a larger buffer (a small Buffer shares its pool's memory): only its own bytes are written.
  const pooled = Buffer.from('prefix|the message|suffix');
  await writer.write(path.join(dir, 'm0.eml'), path.join(dir, 'm0.eml.retry.tmp'), pooled.subarray(7, 18));
  expect(fs.readFileSync(path.join(dir, 'm0.eml'), 'utf8')).toBe('the message');
  expect(pooled.toString()).toBe('prefix|the message|suffix');
  expect(fs.readdirSync(dir)).toHaveLength(300);
});

it('fails a write into a missing directory with its errno code, and writes the rest of the batch', async () => {
  const missing = path.join(dir, 'gone');
  const results = await Promise.allSettled([
    writer.write(path.join(missing, 'a.eml'), path.join(missing, 'a.eml.tmp'), Buffer.from('a')),
    writer.write(path.join(dir, 'b.eml'), path.join(dir, 'b.eml.tmp'), Buffer.from('b')),
  ]);
  expect(results[0]).toMatchObject({ status: 'rejected', reason: { code: 'ENOENT', message: expect.stringMatching(/ENOENT/) } });
  expect(results[1]).toEqual({ status: 'fulfilled', value: undefined });
  expect(fs.readdirSync(dir).sort()).toEqual(['b.eml']);
});

it('fails the writes still waiting when it is closed', async () => {
  const pending = writer.write(path.join(dir, 'late.eml'), path.join(dir, 'late.eml.tmp'), Buffer.from('late'));
  await writer.close();
  await expect(pending).rejects.toThrow(/closed/);
  expect(fs.readdirSync(dir)).toEqual([]);
});
