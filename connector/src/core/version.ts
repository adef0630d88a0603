// The connector's version, reported at enrolment, in hello and on the local page. Kept in step with
// connector/package.json; the Windows package stamps the version it is built as (build/windows).
declare const LEDGERWIRE_BUILD_VERSION: string | undefined;

export const CONNECTOR_VERSION: string = typeof LEDGERWIRE_BUILD_VERSION === 'string' ? LEDGERWIRE_BUILD_VERSION : '0.1.0';
