// The connector's version, reported at enrolment and in hello. Kept in step with connector/package.json.
export const CONNECTOR_VERSION = '0.1.0';
