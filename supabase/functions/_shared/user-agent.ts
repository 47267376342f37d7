// Who is calling, on every outgoing POST (webhook deliveries and seamless wallet calls): the
// platform and its version as a product token (RFC 9110 10.1.5), with where an operator reads
// about the calls, so its logs, WAF rules and support can name the caller instead of "node". The
// version is the package's (tests/webhooks/signed-post.test.ts holds them equal).
export const SERVICE_VERSION = '3.2.1';
export const USER_AGENT = `CasinoGamingIntegrationService/${SERVICE_VERSION} (+https://docs.cgs.example/webhooks)`;
