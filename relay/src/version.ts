// The relay's version, shown by /admin/v1/whoami and the OpenAPI document.
export const RELAY_VERSION = '0.1.0';
