// The kit's own promises, proven once here so suites can lean on them: call fails loudly on an
// unexpected status (in process and over HTTP), eventually reports what it waited for, the clock only
// moves when told, the CLI runner reports exit codes and stderr, and the catcher scripts its answers.
import { describe, expect, it } from 'vitest';
import { call, eventually, runCli, startRelay, startWebhookCatcher, testClock, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';

describe('test kit', () => {
  it('calls an in-process relay and a listening one, and fails with method, URL, status and body on another status', async () => {
    const relay = await startRelay({ listen: true });
    try {
      const inProcess = await call(relay, 'GET', '/admin/v1/operators', 200, { token: TEST_OPERATOR_TOKEN });
      const overHttp = await call(relay.baseUrl, 'GET', '/admin/v1/operators', 200, { token: TEST_OPERATOR_TOKEN });
      expect(overHttp.body).toEqual(inProcess.body);
      await expect(call(relay.app, 'GET', '/admin/v1/operators', 200)).rejects.toThrow(/^GET \/admin\/v1\/operators answered 401, expected 200: \{/);
      await expect(call(relay.baseUrl, 'GET', '/admin/v1/operators', 200)).rejects.toThrow(/^GET http:\/\/127\.0\.0\.1:\d+\/admin\/v1\/operators answered 401/);
    } finally {
      await relay.close();
    }
  });

  it('eventually returns the first truthy answer and names what it waited for when none comes', async () => {
    let calls = 0;
    expect(await eventually('the third call', () => (++calls === 3 ? 'done' : undefined))).toBe('done');
    await expect(eventually('never', () => false, { timeoutMs: 50 })).rejects.toThrow(/^never did not happen within 50 ms; last value: false/);
    await expect(eventually('a throw', () => { throw new Error('not yet'); }, { timeoutMs: 50 })).rejects.toThrow(/last error: not yet/);
  });

  it('the test clock moves only when told', () => {
    const clock = testClock(1_000);
    expect([clock.now(), clock.date().getTime()]).toEqual([1_000, 1_000]);
    clock.advance(500);
    expect(clock.now()).toBe(1_500);
    clock.set(42);
    expect(clock.now()).toBe(42);
  });

  it('runs a program to its end and fails with stderr on an unexpected exit code', async () => {
    const script = 'process.stdin.on("data", (d) => process.stdout.write(String(d).toUpperCase())); process.stdin.on("end", () => { console.error("bye"); process.exit(3); });';
    const result = await runCli(process.execPath, { args: ['-e', script], stdin: 'hello' });
    expect(result).toMatchObject({ code: 3, stdout: 'HELLO', stderr: 'bye\n' });
    await expect(runCli(process.execPath, { args: ['-e', script], expectCode: 0 })).rejects.toThrow(/exited 3, expected 0:\nbye/);
  });

  it('the webhook catcher keeps deliveries and answers from its script', async () => {
    const catcher = await startWebhookCatcher({ statuses: [500, 200] });
    try {
      await call(catcher.url(''), 'POST', '/hooks', 500, { payload: { type: 'a.b' } });
      await call(catcher.url(''), 'POST', '/hooks', 200, { payload: 'not json' });
      await call(catcher.url(''), 'POST', '/hooks', 200, { payload: {} });
      expect(catcher.received.map((delivery) => [delivery.type, delivery.status])).toEqual([['a.b', 500], ['unparsable', 200], ['untyped', 200]]);
    } finally {
      await catcher.close();
    }
  });
});
