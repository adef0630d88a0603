// The installation id: created once per database, shown by whoami so support can tell relays apart.
// Its operation lives in store/installation/; callers keep importing it from here.
export { ensureInstallationId } from './installation/ensure-installation-id.js';
