// The connector protocol (version CONNECTOR_PROTOCOL_VERSION): what the relay's gateway and the
// connector on the customer's machine say to each other. Every frame is JSON, one member of a zod
// discriminated union on `type` per direction, carrying `v`; each side validates with
// parseClientMessage / parseServerMessage.
//
//   enrol      POST /api/v1/connectors/enroll {token, machine_name, version} → {connector_id, credential}
//   connect    GET /api/v1/connectors/socket, Authorization: Bearer <credential> (401 before the upgrade)
//   connector  hello {connector_version, books, outcomes?, features?}  relay  welcome {companies, sync_cursors, timings, features?}
//              job.ack {job_id}                                        job.assign {job with attempt + lease}
//              job.result {job_id, completed|failed}                   job.result.ack {recorded|duplicate}
//              presence {books}                                        pairings {companies}
//              sync.batch {company_id, kind, items, cursor}            sync.ack {cursor, accepted}
//              ping / pong / error                                     ping / pong / error
//   job-runs   (hello.features offers it, welcome.features confirms it) a run per message instead:
//              jobs.ack {job_ids}                                      jobs.assign {jobs}
//              jobs.result {results}                                   jobs.result.ack {acks}
//
// Delivery is at least once: a job whose lease runs out, or whose connection drops, is assigned again
// (attempt + 1), and the connector deduplicates on job_id. Results and batches are idempotent and
// re-sent until acknowledged; results still in the connector's outbox ride along in hello.
// Close codes: 4000 protocol error, 4001 replaced by a newer connection, 4002 heartbeat timeout,
// 4003 unsupported protocol version.
export * from './protocol-common.js';
export * from './heartbeat-messages.js';
export * from './sync-items.js';
export * from './client-messages.js';
export * from './server-messages.js';
export * from './parse-message.js';
export * from './connector-enrolment.js';
export * from './connector-pairing.js';
