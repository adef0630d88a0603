// The kit's one read of the environment: a program the kit runs inherits the test run's environment
// (PATH, HOME, WINEPREFIX, …) as a shell would hand it on, with the test's own variables on top.
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}
