// Fault matrix, in-process part: the disk under the messaging outbox fills up (ENOSPC) while messages
// are dispatched, then gets room again. A real tmpfs of a few kilobytes is mounted over DATA_DIR/outbox
// (needs root, as CI runs; skipped loudly elsewhere). Time moves through the injected clock. Messages
// that did not fit wait and retry; none is failed for good, none written twice, no half-written file
// is left behind, and every one is sent once there is room.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { call, describeOnDatabases, midMinute, testClock } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from '../messaging/support/messaging-test-relay.js';

const MESSAGES = 40;
const canMount = process.getuid?.() === 0 && process.platform === 'linux';
if (!canMount) process.stderr.write('\n*** fault matrix: SKIPPING the outbox disk-full fault: mounting a tmpfs needs root on Linux ***\n\n');

describeOnDatabases('fault matrix: the outbox disk full', (kind) => {
  let relay: MessagingTestRelay | undefined;
  let mounted: string | undefined;
  afterEach(async () => {
    if (mounted) execFileSync('umount', [mounted]);
    mounted = undefined;
    await relay?.close();
    relay = undefined;
  });

  it.skipIf(!canMount)('keeps messages queued while the disk is full and sends each once when room comes back', async () => {
    const clock = testClock(midMinute());
    relay = await startMessagingRelay(kind, {}, { now: clock.now });
    const tenant = await provisionTenant(relay.app, { limits: { burst_per_minute: 10_000, sustained_per_minute: 10_000, daily_quota: 10_000 } });
    // A large text part, so a few messages fill the small disk.
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', text: `Hello {{name}}\n${'Your invoice is attached below. '.repeat(60)}` });
    const outbox = path.join(relay.config.dataDir, 'outbox');
    fs.mkdirSync(outbox, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24k', 'tmpfs', outbox]);
    mounted = outbox;

    const ids: string[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      ids.push((await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() })).body.message_id);
    }
    await relay.app.messaging.dispatchLoop.runOnce();
    const status = async (id: string) => (await call(relay!.app, 'GET', `/api/messages/${id}`, 200, { token: tenant.apiKey })).body;
    const first = await Promise.all(ids.map(status));
    const waiting = first.filter((m) => m.status === 'queued');
    expect(waiting.length).toBeGreaterThan(0); // the disk filled up
    expect(JSON.stringify(waiting[0].timeline)).toMatch(/ENOSPC|no space left/i);
    expect(fs.readdirSync(outbox).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    execFileSync('mount', ['-o', 'remount,size=4m', outbox]);
    const roomAt = clock.now();
    for (let pass = 0; pass < 40; pass++) {
      const left = (await Promise.all(ids.map(status))).filter((m) => m.status !== 'sent');
      if (left.length === 0) break;
      clock.advance(30_000); // past the retry backoff and an open circuit
      await relay.app.messaging.dispatchLoop.runOnce();
    }
    const final = await Promise.all(ids.map(status));
    const files = fs.readdirSync(outbox);
    const lost = final.filter((m) => m.status !== 'sent' && m.status !== 'queued').length;
    const stuck = final.filter((m) => m.status === 'queued').length;
    // Sent twice would show as two `sent` entries on a message's timeline.
    const duplicated = final.reduce((n, m) => n + Math.max(0, m.timeline.filter((e: { type: string }) => e.type === 'sent').length - 1), 0);
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(MESSAGES);
    process.stdout.write(
      `${lost + stuck + duplicated === 0 ? 'ok  ' : 'FAIL'} outbox disk full (${kind})`.padEnd(52) +
        ` messages ${MESSAGES}  waited ${waiting.length}  lost ${lost}  duplicated ${duplicated}  stuck ${stuck}  recovered in ${(clock.now() - roomAt) / 1000} simulated s\n`,
    );
    expect({ lost, stuck, duplicated }).toEqual({ lost: 0, stuck: 0, duplicated: 0 });
    for (const id of ids) {
      const eml = fs.readFileSync(path.join(outbox, `${id}.eml`), 'utf8');
      expect(eml).toContain('Hello Ada');
      expect(eml.trimEnd().endsWith('--')).toBe(true); // a whole multipart message, not a cut one
    }
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
