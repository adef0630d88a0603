// What test/test-kit.test.ts holds every suite, e2e driver and benchmark to, kept apart from the test so
// its own fixtures can be checked with the same code: the kit's pieces are not written again (nor Vitest's
// expect.poll used for its eventually), relays
// start through the kit, tests do not sleep to synchronise, and no test asserts how long something took.
export type KitRule = 'own-wait-or-call-helper' | 'expect-poll' | 'build-app-outside-kit' | 'sleep' | 'wall-clock-assertion';

const RULES: ReadonlyArray<{ rule: KitRule; pattern: RegExp; appliesTo: (file: string) => boolean }> = [
  {
    rule: 'own-wait-or-call-helper',
    pattern: /\b(?:function\s*\*?\s*(?:eventually|waitFor|waitUntil|callApi)\b|(?:const|let|var)\s+(?:eventually|waitFor|waitUntil|callApi)\s*=)/,
    appliesTo: () => true,
  },
  {
    // Vitest's own poll is a second eventually: one way to wait, with one kind of failure message.
    rule: 'expect-poll',
    pattern: /expect\s*\.poll\(/,
    appliesTo: () => true,
  },
  {
    // Benchmarks build the relay themselves: they measure it alone, without the kit (and Vitest) loaded.
    rule: 'build-app-outside-kit',
    pattern: /\bbuildApp\s*\(/,
    appliesTo: (file) => !file.startsWith('bench/'),
  },
  {
    rule: 'sleep',
    pattern: /new Promise(?:<[^>]*>)?\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*setTimeout\(\s*\1\s*,|from 'node:timers\/promises'/,
    appliesTo: (file) => !file.startsWith('bench/'),
  },
  {
    rule: 'wall-clock-assertion',
    pattern: /expect\(\s*(?:Date\.now\(\)|performance\.now\(\))\s*-/,
    appliesTo: () => true,
  },
];

/** The rules `text` (the file at `file`, relative to the repository root) breaks, one entry per rule. */
export function kitRulesBroken(file: string, text: string): KitRule[] {
  return RULES.filter(({ pattern, appliesTo }) => appliesTo(file) && pattern.test(text)).map(({ rule }) => rule);
}

/** Whether the file is one the rules hold: tests and their helpers, e2e drivers, benchmarks; never the kit itself. */
export function heldToKitRules(file: string): boolean {
  if (!file.endsWith('.ts') || file.startsWith('test/fixtures/') || file.startsWith('test-kit/')) return false;
  return /^(relay|connector|emulator|shared|ui-kit)\/test\//.test(file) || /^test\/[^/]+\.ts$/.test(file) || file.startsWith('e2e/') || file.startsWith('bench/');
}
