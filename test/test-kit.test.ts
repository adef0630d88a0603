// Holds the tree to the one test kit (@ledgerwire/test-kit, issue 35): no suite, e2e driver or benchmark
// writes its own eventually/waitFor/callApi or polls with expect.poll, builds the relay instead of
// starting it through the kit, sleeps to synchronise, or asserts how long something took. Each rule is proven to bite on a fixture
// under test/fixtures/test-kit.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { heldToKitRules, kitRulesBroken, type KitRule } from './test-kit-rules.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Timers that are the subject, not a wait: each one named with why. A new entry needs a reason as good.
 * (Waiting for something to happen is never one: poll for it with the kit's eventually.)
 */
const TIMERS_ALLOWED: Readonly<Record<string, string>> = {
  'relay/test/foundation/sqlite-dialect.test.ts': 'proves a timer fires while a second writer waits for the lock',
  'relay/test/bridge/gateway/connector-own-pings.test.ts': "paces the connector's own pings in real time against the relay's real-time staleness limit",
  'e2e/faults/fault-matrix.ts': 'injects faults at random instants during imports',
  'e2e/load-balancer/rolling-restart.ts': 'paces the load (posts per second) and the restarts through the balancer',
  'e2e/load-balancer/orphaned-leases.ts': 'samples the database at an interval while the restarts run',
};

function brokenIn(file: string): KitRule[] {
  const broken = kitRulesBroken(file, fs.readFileSync(path.join(root, file), 'utf8'));
  return broken.filter((rule) => !(rule === 'sleep' && file in TIMERS_ALLOWED));
}

describe('one test kit', () => {
  it('every test, e2e driver and benchmark keeps to it', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(heldToKitRules)
      .filter((file) => fs.existsSync(path.join(root, file)));
    expect(files.length).toBeGreaterThan(200);
    const offenders = files.flatMap((file) => brokenIn(file).map((rule) => `${file}: ${rule}`));
    expect(offenders).toEqual([]);
  });

  it('each rule bites on its fixture, and code written on the kit passes', () => {
    const fixture = (name: string) => {
      const file = `test/fixtures/test-kit/${name}`;
      // Checked as if it were a suite in relay/test, where the rules hold.
      return kitRulesBroken(`relay/test/${name}`, fs.readFileSync(path.join(root, file), 'utf8'));
    };
    expect(fixture('own-eventually.test.ts')).toEqual(['own-wait-or-call-helper']);
    expect(fixture('own-call-api.test.ts')).toEqual(['own-wait-or-call-helper']);
    expect(fixture('polls-with-vitest.test.ts')).toEqual(['expect-poll']);
    expect(fixture('builds-app.test.ts')).toEqual(['build-app-outside-kit']);
    expect(fixture('sleeps.test.ts')).toEqual(['sleep']);
    expect(fixture('times-itself.test.ts')).toEqual(['wall-clock-assertion']);
    expect(fixture('uses-the-kit.test.ts')).toEqual([]);
  });

  it('every timer allowed is still there to be allowed', () => {
    for (const file of Object.keys(TIMERS_ALLOWED)) expect(kitRulesBroken(file, fs.readFileSync(path.join(root, file), 'utf8')), file).toContain('sleep');
  });
});
